/**
 * A keyword field for Lucene that is fed UTF-8 bytes, or a String encoded once, and reused from
 * document to document: {@link dev.spindle.document.BytesKeywordField}, with {@link
 * dev.spindle.document.KeywordFieldType} describing it and building its queries.
 *
 * <h2>The pieces</h2>
 *
 * <p>{@link dev.spindle.document.KeywordFieldType} is the schema of one field name, built once
 * with its builder and shared: doc values always (sorted-set, or sorted if single-valued),
 * postings unless it is doc-values only, optionally a stored copy, a {@link
 * dev.spindle.document.KeywordNormalizer}, an {@code ignoreAbove} limit counted in a {@link
 * dev.spindle.document.LengthUnit}, and an {@link dev.spindle.document.ImmenseValuePolicy} for
 * values longer than Lucene's term limit. It hands out the fields and builds the queries and sort
 * fields, which normalize their values as the field normalizes what it indexes. {@link
 * dev.spindle.document.BytesKeywordField} is one field of a document: it holds one value and feeds
 * postings (as a binary term, so {@code IndexWriter} takes the bytes without a token stream), doc
 * values and the stored field from the same bytes; {@link dev.spindle.document.BytesKeywordValues}
 * is a reusable group of them for a field with several values in one document.
 *
 * <p>Behind them, package-private: {@code Utf8} decodes and measures UTF-8 by the field's rules
 * (encoding is Lucene's own, so a String indexes to exactly the bytes Lucene's {@code
 * KeywordField} would); {@code LowercaseNormalizer} lowercases bytes exactly as {@code
 * String.toLowerCase(Locale.ROOT)} lowercases the String they encode, with the two special cases
 * written down; {@code KeywordTokenStream} and {@code Utf8TermAttributeImpl} are the one-token
 * stream for callers that ask for one (highlighters, {@code MemoryIndex}), whose term reads as
 * bytes or chars; {@code LuceneSupport} checks the running release.
 *
 * <h2>How a value flows</h2>
 *
 * <p>A String is encoded into a buffer the field keeps and reuses; bytes are not copied, so the
 * caller's array must not change until the document is indexed. The normalizer, if any, writes
 * into a second reused buffer. The checks (the {@code ignoreAbove} limit, the term limit) run when
 * the value is set, before the document reaches {@code IndexWriter}, so a refused value leaves
 * nothing of the document in the index.
 *
 * <h2>Thread-safety</h2>
 *
 * <p>A {@code KeywordFieldType} is immutable and thread-safe: one instance serves every indexing
 * and searching thread. Normalizers must be stateless and thread-safe likewise. A {@code
 * BytesKeywordField}, a {@code BytesKeywordValues} group and the token stream are not thread-safe:
 * one per indexing thread, reused for that thread's documents. Nothing here touches a file;
 * durability is the index's.
 *
 * <h2>What is public, and why</h2>
 *
 * <p>The field, the group, the field type with its builder, the normalizer interface and the two
 * enums: what an application builds documents and queries with. The four classes are {@code
 * @lucene.experimental}. Everything else is package-private.
 *
 * <h2>Lucene releases</h2>
 *
 * <p>Compiled against Lucene 10.6, the package uses only API that every 10.x release has and runs
 * on Lucene 10.0.0 and later 10.x releases, with nothing lost on older ones; the package-private
 * {@code LuceneSupport} checks the release when a field type is built. The build runs the module's
 * suites, unchanged, on the jars of Lucene 10.0.0 and of 10.5.1, the release OpenSearch ships, as
 * well as on 10.6.
 */
package dev.spindle.document;
