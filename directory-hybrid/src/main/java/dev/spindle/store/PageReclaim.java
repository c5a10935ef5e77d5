package dev.spindle.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.lucene.util.Constants;

/**
 * How the kernel decides which page-cache pages to evict, as far as it matters for the read advice
 * of memory-mapped files. {@link HybridDirectory} chooses its advice per kernel kind, because
 * {@link org.apache.lucene.store.ReadAdvice#RANDOM} ({@code MADV_RANDOM}) is a different bargain on
 * each:
 *
 * <ul>
 *   <li>On every kernel, {@code MADV_RANDOM} turns off read-around: a page fault reads the one
 *       missing page instead of a window of the device's {@code read_ahead_kb} around it. When the
 *       index does not fit in the page cache, read-around is what ruins a mapped index: each miss
 *       reads (and caches, evicting others) up to megabytes nobody asked for.
 *   <li>Since Linux 6.3 (commit 8788f6781486, "vma_has_recency"), the kernel ignores the accessed
 *       bits of mappings advised {@code MADV_RANDOM} or {@code MADV_SEQUENTIAL}: a page used only
 *       through such a mapping never counts as recently used.
 *   <li>{@link #LRU}: with the classic two-list LRU, such a page never reaches the active list, so
 *       the page cache it sits in is evicted in the order it was filled, however often a page is
 *       used (a memory cgroup's {@code memory.stat} shows almost none of it active, where NIO reads
 *       or {@code NORMAL} mappings keep much of it active). Advising random-access files {@code
 *       RANDOM} still wins in the get-and-search benchmark: when the device reads ahead megabytes,
 *       one read-around costs more than many lost hits.
 *   <li>{@link #MULTI_GEN_LRU}: with the multi-generational LRU, such a page stays in the oldest
 *       generation however often it is used, so it is evicted before any other page cache, as soon
 *       as anything needs memory (apache/lucene#14408 and apache/lucene#15040,
 *       elastic/elasticsearch#124499). Only data whose pages are rarely reused can take {@code
 *       RANDOM} then.
 * </ul>
 *
 * <p>{@link #detect()} reads the kernel's switch, and says {@link #UNKNOWN} where {@code /sys} is
 * hidden; {@link HybridDirectory.Builder#pageReclaim} takes an explicit value, for such a container
 * or for tests.
 */
public enum PageReclaim {
  /**
   * The classic active/inactive LRU of Linux, or an operating system without Linux's
   * multi-generational LRU.
   */
  LRU,
  /** Linux's multi-generational LRU ({@code lru_gen}), switched on. */
  MULTI_GEN_LRU,
  /**
   * Linux, but which reclaim is in use cannot be told: {@code /sys/kernel/mm} is hidden, as in some
   * containers. The read advice is then the one whose worst case is the milder on either kernel,
   * that of {@link #LRU}. A {@code RANDOM} mapping at worst has its pages evicted in the order they
   * were read, whatever their use, on both kernels; a {@code NORMAL} one reads a read-around window
   * per miss on both kernels, which beside another reader of the page cache cost more in the
   * get-and-search benchmark than the lost recency of {@code RANDOM} pages.
   */
  UNKNOWN;

  /** Where Linux exposes memory management switches, the multi-generational LRU's among them. */
  static final Path KERNEL_MM = Path.of("/sys/kernel/mm");

  /** Where Linux 6.1+ exposes the multi-generational LRU's switches. */
  static final Path LRU_GEN_ENABLED = KERNEL_MM.resolve("lru_gen").resolve("enabled");

  /**
   * Detects the page reclaim of the running kernel from {@code /sys/kernel/mm/lru_gen/enabled}. A
   * Linux kernel that shows {@code /sys/kernel/mm} without that file (built without {@code
   * CONFIG_LRU_GEN}, or older than 6.1) and any other operating system are taken as {@link #LRU};
   * Linux with {@code /sys/kernel/mm} hidden is {@link #UNKNOWN}.
   *
   * @return the page reclaim in effect now
   */
  public static PageReclaim detect() {
    return detect(LRU_GEN_ENABLED, KERNEL_MM, Constants.LINUX);
  }

  /**
   * Detects the page reclaim from a file with the contents of {@code lru_gen/enabled}, a bit mask
   * such as {@code 0x0007} whose lowest bit is the main switch, or from the absence of that file in
   * a visible {@code kernelMm} folder.
   */
  static PageReclaim detect(Path lruGenEnabled, Path kernelMm, boolean linux) {
    String contents;
    try {
      contents = Files.readString(lruGenEnabled, StandardCharsets.US_ASCII);
    } catch (IOException | SecurityException unreadable) {
      if (linux == false || isVisibleFolder(kernelMm)) {
        return LRU;
      }
      return UNKNOWN;
    }
    return parseLruGenEnabled(contents) ? MULTI_GEN_LRU : LRU;
  }

  private static boolean isVisibleFolder(Path folder) {
    try {
      return Files.isDirectory(folder) && Files.isReadable(folder);
    } catch (SecurityException hidden) {
      return false;
    }
  }

  /**
   * Whether the contents of {@code lru_gen/enabled} say the multi-generational LRU is on. The
   * kernel prints a hexadecimal mask ({@code 0x0007}); {@code y} and {@code n}, which the file
   * accepts when written, are understood too.
   */
  static boolean parseLruGenEnabled(String contents) {
    String value = contents.strip().toLowerCase(Locale.ROOT);
    if (value.equals("y")) {
      return true;
    }
    if (value.startsWith("0x")) {
      try {
        return (Long.parseLong(value.substring(2), 16) & 1) != 0;
      } catch (NumberFormatException notAMask) {
        return false;
      }
    }
    return false;
  }
}
