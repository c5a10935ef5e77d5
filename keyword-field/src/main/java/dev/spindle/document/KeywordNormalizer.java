package dev.spindle.document;

import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;

/**
 * Rewrites a keyword's UTF-8 bytes before they are indexed and before query values are looked up,
 * like Elasticsearch's keyword normalizers, but on bytes: no String is built on the way.
 *
 * <p>Implementations must be stateless and thread-safe: one instance serves every field and query
 * of a {@link KeywordFieldType}, from any thread. They must be deterministic and must not modify
 * the bytes they are given; state for one call lives in the scratch buffer the caller passes.
 *
 * @lucene.experimental
 */
@FunctionalInterface
public interface KeywordNormalizer {

  /**
   * Normalizes one value.
   *
   * @param value the value's bytes; not to be modified
   * @param scratch a buffer the caller owns and reuses, which the result may live in
   * @return the normalized bytes: {@code value} itself if normalizing changes nothing (the common
   *     case, and the one that copies nothing), or a view of {@code scratch}. Either stays valid
   *     until {@code scratch} is used again or {@code value}'s bytes change.
   */
  BytesRef normalize(BytesRef value, BytesRefBuilder scratch);

  /**
   * Lowercasing with the result of {@link String#toLowerCase(java.util.Locale)} for {@link
   * java.util.Locale#ROOT} on every well-formed UTF-8 value. ASCII is lowercased byte by byte;
   * other characters are mapped one code point at a time, and the only context-dependent rule of
   * the root locale (Greek capital sigma at the end of a word) goes through {@code String} itself.
   * Bytes that are not well-formed UTF-8 are copied unchanged.
   */
  static KeywordNormalizer lowercase() {
    return LowercaseNormalizer.INSTANCE;
  }
}
