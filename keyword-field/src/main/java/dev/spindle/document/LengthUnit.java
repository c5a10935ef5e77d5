package dev.spindle.document;

/**
 * What {@link KeywordFieldType.Builder#ignoreAbove(int, LengthUnit)} counts. Lucene's term limit is
 * in bytes; Elasticsearch's {@code ignore_above} is in characters. The two differ by up to three
 * times for the same value, so the unit is always spelled out.
 */
public enum LengthUnit {
  /** UTF-8 bytes of the value as given, before normalization. */
  BYTES,
  /**
   * UTF-16 chars of the value as given, before normalization: {@link String#length()} for a String;
   * for bytes, the chars they decode to (two for a supplementary character, one for each byte that
   * is not well-formed UTF-8).
   */
  CHARS
}
