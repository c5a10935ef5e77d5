package dev.spindle.translog;

import java.util.HexFormat;
import java.util.Locale;

/** Renders checksums and magics in exception messages. */
final class Hex {

  private Hex() {}

  static String int32(int value) {
    return String.format(Locale.ROOT, "0x%08x", value);
  }

  static String bytes(byte[] bytes) {
    return "0x" + HexFormat.of().formatHex(bytes);
  }
}
