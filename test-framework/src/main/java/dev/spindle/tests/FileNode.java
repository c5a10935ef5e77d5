package dev.spindle.tests;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A regular file of the simulated disk and what is known about its durability.
 *
 * <p>Three states are tracked. The <em>durable image</em> is what the disk holds for sure. The
 * <em>page cache</em> is what readers see: the real file. In between lie the <em>unsynced
 * events</em>, every write and length change since the last force, in order. On a power loss each
 * block of the file may hold its durable content or the content after any prefix of the events that
 * touched it; the length may be the durable one or any one in between.
 *
 * <p>A failed force (an injected fault) makes a random part of the dirty pages durable and forgets
 * the rest: like Linux after an fsync error, those pages stay visible in the page cache but are
 * clean, so a later successful force does not write them ("fsyncgate"). Only rewriting them makes
 * them dirty again.
 *
 * <p>Memory-mapped writes bypass the channel, so for a file mapped read-write the real file is read
 * back: at force every mapped page is taken as it is, and at a power loss a mapped block that
 * differs from what the events explain gets that content as one more possible version.
 *
 * <p>Thread-safety: every method synchronizes on the node. Channels hold the same monitor across
 * the real I/O and the bookkeeping, so the events are in the order the real file saw them.
 */
final class FileNode extends Node {

  private FileImage durable;

  /** Page-cache content of pages that a failed force lost for good; differs from durable. */
  private final TreeMap<Long, byte[]> forgotten = new TreeMap<>();

  /** Length in the page cache at the last force; the events start from it. */
  private long baseLength;

  private final List<DataEvent> events = new ArrayList<>();

  /** Length in the page cache now. */
  private long length;

  /** Regions mapped read-write since the last power loss, as {start, end} pairs. */
  private final List<long[]> mappedRanges = new ArrayList<>();

  /** A readable real channel on this file kept open while it is mapped; owned by this node. */
  private FileChannel mappedReader;

  FileNode(int id, FileImage durable) {
    super(id);
    this.durable = durable;
    this.length = durable.length();
    this.baseLength = length;
  }

  synchronized long length() {
    return length;
  }

  synchronized void recordWrite(long offset, byte[] bytes) {
    if (bytes.length == 0) {
      return;
    }
    length = Math.max(length, offset + bytes.length);
    events.add(new DataEvent.Write(offset, bytes, length));
  }

  synchronized void recordResize(long newLength) {
    if (newLength != length) {
      events.add(new DataEvent.Resize(length, newLength));
      length = newLength;
    }
  }

  /**
   * Records a read-write mapping. The first {@code reader} recorded becomes this node's: its
   * channel leaves it open ({@link #ownsReader}) and {@link #releaseMappedReader()} closes it.
   *
   * @return whether {@code reader} became this node's
   */
  synchronized boolean recordMapping(long position, long size, FileChannel reader) {
    if (position + size > length) {
      recordResize(position + size);
    }
    mappedRanges.add(new long[] {position, position + size});
    if (mappedReader == null) {
      mappedReader = reader;
      return true;
    }
    return false;
  }

  synchronized boolean ownsReader(FileChannel channel) {
    return mappedReader == channel;
  }

  synchronized void releaseMappedReader() throws IOException {
    FileChannel reader = mappedReader;
    mappedReader = null;
    if (reader != null) {
      reader.close();
    }
  }

  /** Makes the page cache durable, as a successful FileChannel.force does. */
  synchronized void force() throws IOException {
    Map<Long, List<DataEvent>> byPage = eventsByBlock(FileImage.PAGE_SIZE);
    for (long page : dirtyPages(byPage)) {
      durable.write(page * FileImage.PAGE_SIZE, currentBlock(page, FileImage.PAGE_SIZE, byPage));
      forgotten.remove(page);
    }
    durable.setLength(length);
    forgotten.tailMap(pagesFor(length), true).clear();
    baseLength = length;
    events.clear();
  }

  /**
   * A force that failed: writes a random part of the dirty pages, forgets the others, and returns
   * what happened for the report.
   */
  synchronized String failForce(Random random) throws IOException {
    Map<Long, List<DataEvent>> byPage = eventsByBlock(FileImage.PAGE_SIZE);
    TreeSet<Long> dirty = dirtyPages(byPage);
    int mode = random.nextInt(3); // 0: nothing written, 1: everything, 2: some pages
    long oldLength = durable.length();
    boolean lengthWritten = mode == 1 || (mode == 2 && random.nextBoolean());
    int written = 0;
    for (long page : dirty) {
      byte[] content = currentBlock(page, FileImage.PAGE_SIZE, byPage);
      boolean write = mode == 1 || (mode == 2 && random.nextBoolean());
      if (write) {
        durable.write(page * FileImage.PAGE_SIZE, content);
        written++;
      }
      if (write && (lengthWritten || (page + 1) * FileImage.PAGE_SIZE <= oldLength)) {
        forgotten.remove(page);
      } else {
        // Not written, or written beyond a length that was not: lost from the disk's view.
        forgotten.put(page, content);
      }
    }
    durable.setLength(lengthWritten ? length : oldLength);
    forgotten.tailMap(pagesFor(length), true).clear();
    baseLength = length;
    events.clear();
    return String.format(
        Locale.ROOT,
        "%d of %d dirty pages written, length %s; the rest never will be",
        written,
        dirty.size(),
        lengthWritten ? "written" : "not written (bytes past the old length are lost)");
  }

  /**
   * Chooses what the disk holds for this file after a power loss, appending one report line if
   * anything was unsynced.
   */
  synchronized FileImage crashImage(Random random, int blockSize, String name, List<String> report)
      throws IOException {
    TreeMap<Long, List<DataEvent>> byBlock = eventsByBlock(blockSize);
    int mappedChanges = addMappedWrites(byBlock, blockSize);
    List<Long> lengths = new ArrayList<>();
    lengths.add(durable.length());
    if (baseLength != durable.length()) {
      lengths.add(baseLength);
    }
    for (DataEvent event : events) {
      lengths.add(event.lengthAfter);
    }
    if (byBlock.isEmpty() && lengths.size() == 1) {
      if (forgotten.isEmpty() == false) {
        report.add(name + ": only pages lost by a failed force, which stay lost");
      }
      return durable; // unchanged; reset() takes it back as is
    }
    DataOutcome outcome = DataOutcome.pick(random);
    FileImage image = durable.copy();
    int oldBlocks = 0;
    int newestBlocks = 0;
    int between = 0;
    for (Map.Entry<Long, List<DataEvent>> entry : byBlock.entrySet()) {
      List<DataEvent> versions = entry.getValue();
      int applied = outcome.eventsToApply(random, versions.size());
      if (applied == 0) {
        oldBlocks++;
        continue;
      }
      if (applied == versions.size()) {
        newestBlocks++;
      } else {
        between++;
      }
      long start = entry.getKey() * blockSize;
      byte[] block = baseBlock(start, blockSize);
      for (int i = 0; i < applied; i++) {
        versions.get(i).applyTo(block, start);
      }
      image.write(start, block);
    }
    long chosenLength = lengths.get(outcome.lengthIndex(random, lengths.size()));
    image.setLength(chosenLength);
    report.add(
        String.format(
            Locale.ROOT,
            "%s: %s; %d unsynced changes%s; %d B blocks: %d old, %d newest, %d in between;"
                + " length %d (durable %d, page cache %d)",
            name,
            outcome.description,
            events.size(),
            mappedChanges == 0 ? "" : " + " + mappedChanges + " mapped blocks changed",
            blockSize,
            oldBlocks,
            newestBlocks,
            between,
            chosenLength,
            durable.length(),
            length));
    return image;
  }

  /** After a power loss: the chosen image is now all there is. */
  synchronized void reset(FileImage image) {
    durable = image;
    forgotten.clear();
    events.clear();
    mappedRanges.clear();
    length = image.length();
    baseLength = length;
  }

  private TreeMap<Long, List<DataEvent>> eventsByBlock(int blockSize) {
    TreeMap<Long, List<DataEvent>> byBlock = new TreeMap<>();
    for (DataEvent event : events) {
      if (event.end() <= event.start()) {
        continue;
      }
      for (long b = event.start() / blockSize; b <= (event.end() - 1) / blockSize; b++) {
        byBlock.computeIfAbsent(b, k -> new ArrayList<>()).add(event);
      }
    }
    return byBlock;
  }

  private TreeSet<Long> dirtyPages(Map<Long, List<DataEvent>> byPage) {
    TreeSet<Long> dirty = new TreeSet<>(byPage.keySet());
    if (mappedReader != null) {
      for (long[] range : mappedRanges) {
        long end = Math.min(range[1], length);
        for (long p = range[0] / FileImage.PAGE_SIZE; p * FileImage.PAGE_SIZE < end; p++) {
          dirty.add(p);
        }
      }
    }
    dirty.tailSet(pagesFor(length), true).clear();
    return dirty;
  }

  /**
   * Adds, for each mapped block whose real content is not what the events explain, a write of the
   * real content as its newest version. Returns how many blocks that was.
   */
  private int addMappedWrites(TreeMap<Long, List<DataEvent>> byBlock, int blockSize)
      throws IOException {
    if (mappedReader == null) {
      return 0;
    }
    TreeSet<Long> blocks = new TreeSet<>();
    for (long[] range : mappedRanges) {
      long end = Math.min(range[1], length);
      for (long b = range[0] / blockSize; b * blockSize < end; b++) {
        blocks.add(b);
      }
    }
    int changed = 0;
    for (long b : blocks) {
      List<DataEvent> versions = byBlock.getOrDefault(b, List.of());
      byte[] explained = baseBlock(b * blockSize, blockSize);
      for (DataEvent event : versions) {
        event.applyTo(explained, b * blockSize);
      }
      byte[] real = readReal(b * blockSize, blockSize);
      if (Arrays.equals(explained, real) == false) {
        byBlock
            .computeIfAbsent(b, k -> new ArrayList<>())
            .add(new DataEvent.Write(b * blockSize, real, length));
        changed++;
      }
    }
    return changed;
  }

  /** The page-cache content of one block now. */
  private byte[] currentBlock(long index, int blockSize, Map<Long, List<DataEvent>> byBlock)
      throws IOException {
    long start = index * blockSize;
    if (mappedReader != null) {
      return readReal(start, blockSize);
    }
    byte[] block = baseBlock(start, blockSize);
    for (DataEvent event : byBlock.getOrDefault(index, List.of())) {
      event.applyTo(block, start);
    }
    return block;
  }

  /** The page-cache content of a block at the last force, before the unsynced events. */
  private byte[] baseBlock(long start, int blockSize) {
    byte[] block = new byte[blockSize];
    byte[] lost = forgotten.get(start / FileImage.PAGE_SIZE);
    if (lost != null) {
      System.arraycopy(lost, (int) (start % FileImage.PAGE_SIZE), block, 0, blockSize);
    } else {
      durable.read(start, block, 0, blockSize);
    }
    if (start + blockSize > baseLength) {
      Arrays.fill(block, (int) Math.max(0, baseLength - start), blockSize, (byte) 0);
    }
    return block;
  }

  private byte[] readReal(long start, int size) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(size);
    while (buffer.hasRemaining()) {
      if (mappedReader.read(buffer, start + buffer.position()) < 0) {
        break;
      }
    }
    return buffer.array();
  }

  private static long pagesFor(long length) {
    return (length + FileImage.PAGE_SIZE - 1) / FileImage.PAGE_SIZE;
  }
}
