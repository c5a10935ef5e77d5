package dev.spindle.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.Constants;

/**
 * The read advice the Linux kernel holds for a page of a mapped file, read from {@code
 * /proc/self/smaps}: a mapping advised {@code MADV_RANDOM} shows the flag {@code rr}, one advised
 * {@code MADV_SEQUENTIAL} the flag {@code sr}, and advice over part of a mapping splits it into
 * areas of their own. This sees the advice that reached the kernel on every Lucene release, where
 * {@link org.apache.lucene.store.IndexInput#isEfficientFor} only exists from Lucene 10.6.
 */
final class KernelAdvice {

  private static final Path SMAPS = Path.of("/proc/self/smaps");

  private KernelAdvice() {}

  /** Whether this process can read its memory map. */
  static boolean available() {
    return Constants.LINUX && Files.isReadable(SMAPS);
  }

  /**
   * The advice of the mapped page of {@code file} that holds byte {@code offset} of the file.
   *
   * @throws AssertionError if no mapping of the file covers that byte
   */
  static ReadAdvice of(Path file, long offset) throws IOException {
    String path = file.toRealPath().toString();
    try (BufferedReader smaps = Files.newBufferedReader(SMAPS, StandardCharsets.US_ASCII)) {
      boolean inArea = false;
      for (String line = smaps.readLine(); line != null; line = smaps.readLine()) {
        if (isAreaHeader(line)) {
          inArea = covers(line, path, offset);
        } else if (inArea && line.startsWith("VmFlags:")) {
          String flags = " " + line.substring("VmFlags:".length()).trim() + " ";
          if (flags.contains(" rr ")) {
            return ReadAdvice.RANDOM;
          }
          return flags.contains(" sr ") ? ReadAdvice.SEQUENTIAL : ReadAdvice.NORMAL;
        }
      }
    }
    throw new AssertionError("no mapping of " + path + " covers offset " + offset);
  }

  /** {@code start-end perms offset dev inode path}: a header line, not a {@code Key: value}. */
  private static boolean isAreaHeader(String line) {
    int space = line.indexOf(' ');
    return space > 0 && line.substring(0, space).indexOf('-') > 0 && line.indexOf(':') > space;
  }

  private static boolean covers(String header, String path, long offset) {
    String[] fields = header.trim().split("\\s+", 6);
    if (fields.length < 6 || fields[5].equals(path) == false) {
      return false;
    }
    String[] range = fields[0].split("-");
    long length = Long.parseUnsignedLong(range[1], 16) - Long.parseUnsignedLong(range[0], 16);
    long start = Long.parseLong(fields[2].toLowerCase(Locale.ROOT), 16);
    return offset >= start && offset < start + length;
  }
}
