/**
 * Lucene {@link org.apache.lucene.store.Directory} implementations: {@link
 * dev.spindle.store.HybridDirectory} memory-maps the files that want random access and reads the
 * rest through NIO.
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.3.0 and later 10.x releases. The
 * package-private {@code LuceneSupport} checks the release when a directory is built, and finds
 * once which Lucene APIs newer than 10.3 are there; {@link
 * dev.spindle.store.HybridDirectory#stats()} reports those that are not.
 */
package dev.spindle.store;
