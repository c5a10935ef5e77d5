/**
 * The benchmarks of directory-hybrid: id-lookups, indexing, get-and-search and updates. {@link
 * dev.spindle.bench.store.DirectoryKind} names the contenders (a variant is one more constant);
 * their trials run in {@link dev.spindle.bench.store.ReadService} and {@link
 * dev.spindle.bench.store.WriteService}, in child JVMs that {@code DirectoryJvms} keeps.
 */
package dev.spindle.bench.store;
