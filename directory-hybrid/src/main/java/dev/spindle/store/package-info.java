/**
 * Lucene {@link org.apache.lucene.store.Directory} implementations: {@link
 * dev.spindle.store.HybridDirectory} memory-maps the files that want random access and reads the
 * rest through NIO.
 */
package dev.spindle.store;
