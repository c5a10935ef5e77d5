package dev.spindle.translog.cli;

/**
 * One JSON object on one line (JSON Lines), built field by field in the order given. Strings are
 * escaped as RFC 8259 requires; numbers are written as Java writes longs. Not thread-safe.
 */
final class JsonLine {

  private final StringBuilder json = new StringBuilder("{");

  /** Adds a number field. */
  JsonLine field(String name, long value) {
    name(name);
    json.append(value);
    return this;
  }

  /** Adds a string field. */
  JsonLine field(String name, String value) {
    name(name);
    string(value);
    return this;
  }

  /** Adds a boolean field. */
  JsonLine field(String name, boolean value) {
    name(name);
    json.append(value);
    return this;
  }

  private void name(String name) {
    if (json.length() > 1) {
      json.append(',');
    }
    string(name);
    json.append(':');
  }

  private void string(String value) {
    json.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        case '\b' -> json.append("\\b");
        case '\f' -> json.append("\\f");
        default -> {
          if (c < 0x20) {
            json.append("\\u00");
            json.append(Character.forDigit(c >> 4, 16));
            json.append(Character.forDigit(c & 0xf, 16));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }

  /** The object, without a line break. */
  @Override
  public String toString() {
    return json + "}";
  }
}
