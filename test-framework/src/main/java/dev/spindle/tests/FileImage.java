package dev.spindle.tests;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes of one file held in memory as sparse 4 KiB pages: a page that was never written reads
 * as zeros. Bytes at or beyond {@link #length()} are always zero, so growing the length never
 * exposes stale data. Not thread-safe; its owner synchronizes.
 */
final class FileImage {

  static final int PAGE_SIZE = 4096;

  private final TreeMap<Long, byte[]> pages = new TreeMap<>();
  private long length;

  long length() {
    return length;
  }

  FileImage copy() {
    FileImage copy = new FileImage();
    for (Map.Entry<Long, byte[]> page : pages.entrySet()) {
      copy.pages.put(page.getKey(), page.getValue().clone());
    }
    copy.length = length;
    return copy;
  }

  /** Reads {@code len} bytes at {@code offset}; zeros where nothing was written. */
  void read(long offset, byte[] dst, int off, int len) {
    while (len > 0) {
      long index = offset / PAGE_SIZE;
      int inPage = (int) (offset % PAGE_SIZE);
      int n = Math.min(len, PAGE_SIZE - inPage);
      byte[] page = pages.get(index);
      if (page == null) {
        Arrays.fill(dst, off, off + n, (byte) 0);
      } else {
        System.arraycopy(page, inPage, dst, off, n);
      }
      offset += n;
      off += n;
      len -= n;
    }
  }

  byte[] read(long offset, int len) {
    byte[] bytes = new byte[len];
    read(offset, bytes, 0, len);
    return bytes;
  }

  /** Writes bytes at {@code offset}, growing the length if they end beyond it. */
  void write(long offset, byte[] src, int off, int len) {
    long end = offset + len;
    while (len > 0) {
      long index = offset / PAGE_SIZE;
      int inPage = (int) (offset % PAGE_SIZE);
      int n = Math.min(len, PAGE_SIZE - inPage);
      System.arraycopy(src, off, pages.computeIfAbsent(index, i -> new byte[PAGE_SIZE]), inPage, n);
      offset += n;
      off += n;
      len -= n;
    }
    length = Math.max(length, end);
  }

  void write(long offset, byte[] src) {
    write(offset, src, 0, src.length);
  }

  /** Sets the length; shrinking zeroes everything from the new length on. */
  void setLength(long newLength) {
    if (newLength < length) {
      long firstWhole = (newLength + PAGE_SIZE - 1) / PAGE_SIZE;
      pages.tailMap(firstWhole, true).clear();
      byte[] partial = pages.get(newLength / PAGE_SIZE);
      if (partial != null) {
        Arrays.fill(partial, (int) (newLength % PAGE_SIZE), PAGE_SIZE, (byte) 0);
      }
    }
    length = newLength;
  }

  /** Indexes of the pages that hold written bytes, ascending. */
  Iterable<Long> writtenPages() {
    return pages.keySet();
  }
}
