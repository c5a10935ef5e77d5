/**
 * The benchmarks of directory-hybrid: id-lookups, indexing, get-and-search and updates, against the
 * {@link dev.spindle.bench.store.DirectoryKind}s, in child JVMs that {@code DirectoryJvms} keeps.
 */
package dev.spindle.bench.store;
