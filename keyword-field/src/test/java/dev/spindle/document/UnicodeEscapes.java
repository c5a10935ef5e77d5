package dev.spindle.document;

/** Spells a test value out as code units, so that a failure message shows what was tested. */
final class UnicodeEscapes {

  private UnicodeEscapes() {}

  static String of(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c >= 0x20 && c < 0x7F) {
        out.append(c);
      } else {
        out.append("\\u").append(String.format(java.util.Locale.ROOT, "%04X", (int) c));
      }
    }
    return out.append('"').toString();
  }
}
