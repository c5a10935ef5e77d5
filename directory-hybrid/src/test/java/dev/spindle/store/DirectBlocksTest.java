package dev.spindle.store;

import static dev.spindle.store.TestFiles.readAndCheck;
import static dev.spindle.store.TestFiles.writeFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.tests.mockfile.FilterFileSystemProvider;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Prefetches of per-document data read with {@code O_DIRECT} into direct blocks: the reads that
 * follow take the blocks and see the file's bytes, through every kind of read and across a block's
 * end; blocks are taken once, and slots come back whether a block is taken, evicted or dropped;
 * stored fields read back through the codec's own prefetch; closing races nothing but the closed
 * input's reads. Every range is taken as not resident, so that each prefetch reads a block. The
 * files are on the real file system, where {@code O_DIRECT} works.
 */
public class DirectBlocksTest extends LuceneTestCase {

  private static final Prefetcher.ResidencyCheck NEVER_RESIDENT = (input, offset, length) -> false;

  private static HybridDirectory.Builder directBuilder(Path path, int slots) {
    return HybridDirectory.builder(path)
        .prefetchThreads(1 + random().nextInt(4))
        .prefetchQueueCapacity(1 << 10)
        .directPrefetchBlocks(slots)
        .residencyCheck(NEVER_RESIDENT);
  }

  private static Path realTempDir() {
    return FilterPath.unwrap(createTempDir()).toAbsolutePath();
  }

  /**
   * A batch of prefetched ranges of a stored-fields file, read back in a random order, each from
   * its start with a random mix of reads that runs past the range's end: every byte is the file's,
   * and, with a slot per range, every block is taken, none read twice.
   */
  public void testPrefetchedRangesReadBackFromTheirBlocks() throws Exception {
    int length = 2 << 20;
    int batch = 1 + random().nextInt(32);
    try (HybridDirectory dir = directBuilder(realTempDir(), batch).build()) {
      writeFile(dir, "_0.fdt", length);
      DirectBlocks blocks = dir.prefetcher().directBlocks();
      assertNotNull("this JDK can open files with O_DIRECT", blocks);
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        // Each range in a region of its own: a second miss in a region is read into the page cache.
        Map<Long, Integer> ranges = new HashMap<>();
        Set<Long> regions = new HashSet<>();
        while (ranges.size() < batch) {
          long offset = random().nextInt(length - (200 << 10));
          if (regions.add(offset >>> PageCacheAdmission.REGION_SHIFT)) {
            ranges.put(offset, 1 + random().nextInt(100 << 10));
          }
        }
        for (Map.Entry<Long, Integer> range : ranges.entrySet()) {
          clone.prefetch(range.getKey(), range.getValue());
        }
        List<Long> order = new ArrayList<>(ranges.keySet());
        java.util.Collections.shuffle(order, random());
        for (long offset : order) {
          clone.seek(offset);
          readAndCheck(clone, offset, ranges.get(offset) + random().nextInt(8192));
        }
        assertEquals("a block per range, each taken once", batch, blocks.taken());
        assertEquals(batch, dir.stats().prefetchesTakenFromDirectBlocks());
        assertTrue(
            dir.stats().toString(),
            dir.stats().toString().contains("prefetchesTakenFromDirectBlocks=" + batch));
        // A pool thread counts its block a moment after the reader could take it.
        while (blocks.read() < batch) {
          Thread.onSpinWait();
        }
        assertEquals("no block read twice", batch, blocks.read());
      }
    }
  }

  /**
   * With one slot, each new prefetch evicts the block before it that nobody took; the last one is
   * taken, the others read through the mapping, all correctly; a range too large for a slot goes to
   * the page cache. Afterwards the slot is free again.
   */
  public void testEvictedAndOversizedRangesReadThroughTheMapping() throws Exception {
    int length = 1 << 20;
    try (HybridDirectory dir = directBuilder(realTempDir(), 1).build()) {
      writeFile(dir, "_0.tvd", length);
      DirectBlocks blocks = dir.prefetcher().directBlocks();
      try (IndexInput in = dir.openInput("_0.tvd", IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        int prefetches = 2 + random().nextInt(10);
        long[] offsets = new long[prefetches];
        for (int i = 0; i < prefetches; i++) {
          // A region each: a second miss in a region is read into the page cache, not a block.
          offsets[i] = (long) PageCacheAdmission.REGION_BYTES * i + random().nextInt(4096);
          clone.prefetch(offsets[i], 1 + random().nextInt(32 << 10));
          // Each prefetch's block is read before the next one is asked for, so that the next
          // evicts it rather than finding the slot still being read (and reading into the page
          // cache instead). A read is one positional read; the test's own timeout bounds this.
          while (blocks.read() < i + 1) {
            Thread.onSpinWait();
          }
          clone.seek(offsets[i] + 10);
          assertEquals((byte) (offsets[i] + 10), clone.readByte());
        }
        assertEquals("every block was evicted, none taken", 0, blocks.taken());
        long last = (long) PageCacheAdmission.REGION_BYTES * prefetches;
        clone.prefetch(last, 100);
        clone.seek(last);
        readAndCheck(clone, last, 200);
        assertEquals(1, blocks.taken());
        long taken = blocks.taken();
        long oversized = 600_000;
        clone.prefetch(oversized, DirectBlocks.SLOT_BYTES + 1);
        clone.seek(oversized);
        readAndCheck(clone, oversized, DirectBlocks.SLOT_BYTES + 1);
        assertEquals("an oversized range is not a block", taken, blocks.taken());
        assertNotNull("the slot came back", blocks.take());
      }
    }
  }

  /**
   * Slots are allocated when first needed, never more than asked for, and reused once given back: a
   * process that never reads an uncached document holds no direct memory for them.
   */
  public void testSlotsAreAllocatedOnFirstUse() {
    int slots = 1 + random().nextInt(8);
    DirectBlocks blocks = new DirectBlocks(slots);
    assertEquals("nothing allocated up front", 0, blocks.allocatedSlots());
    ByteBuffer first = blocks.takeFree();
    assertNotNull(first);
    assertEquals(1, blocks.allocatedSlots());
    assertEquals(DirectBlocks.SLOT_BYTES, first.capacity());
    assertTrue("aligned for O_DIRECT", first.isDirect() && first.alignmentOffset(0, 4096) == 0);
    blocks.give(first);
    assertSame("a slot given back is reused", first, blocks.takeFree());
    List<ByteBuffer> taken = new ArrayList<>(List.of(first));
    for (int i = 1; i < slots; i++) {
      taken.add(blocks.take());
    }
    assertEquals(slots, blocks.allocatedSlots());
    assertNull("no more than asked for", blocks.takeFree());
    assertNull(blocks.take());
    taken.forEach(blocks::give);
    assertEquals(slots, blocks.allocatedSlots());
  }

  /**
   * A region of the file prefetched three times while not resident: the first prefetch is read into
   * a block, the second into the page cache (admitted, so that a document read again becomes
   * resident), and the third, the region having failed to stay resident, into a block again.
   */
  public void testTheSecondMissOfARegionIsPrefetchedIntoThePageCache() throws Exception {
    try (HybridDirectory dir = directBuilder(realTempDir(), 1 + random().nextInt(4)).build()) {
      writeFile(dir, "_0.fdt", 1 << 20);
      DirectBlocks blocks = dir.prefetcher().directBlocks();
      long region = random().nextInt(60) * (long) PageCacheAdmission.REGION_BYTES;
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        for (int miss = 1; miss <= 3; miss++) {
          IndexInput clone = in.clone();
          long offset = region + random().nextInt(PageCacheAdmission.REGION_BYTES);
          clone.prefetch(offset, 1 + random().nextInt(32 << 10));
          long expectedBlocks = miss == 3 ? 2 : 1;
          long expectedAdmitted = miss == 1 ? 0 : 1;
          assertEquals("miss " + miss, expectedAdmitted, dir.stats().readsAdmittedToPageCache());
          while (blocks.read() < expectedBlocks) {
            Thread.onSpinWait(); // one positional read; the test's own timeout bounds this
          }
          clone.seek(offset);
          readAndCheck(clone, offset, 1 + random().nextInt(20_000), false);
          assertEquals("miss " + miss, expectedBlocks, blocks.taken());
        }
        assertEquals("two blocks, one read into the page cache", 3, dir.stats().prefetchesIssued());
      }
      assertTrue(dir.stats().toString().contains("readsAdmittedToPageCache=1"));
    }
  }

  /**
   * Documents of random sizes, some larger than a slot, in segments with and without compound
   * files, read back in batches that the codec prefetches first: every stored value is the one
   * written, and blocks were taken.
   */
  public void testStoredFieldsReadBackThroughTheCodecsPrefetch() throws Exception {
    Path path = realTempDir();
    int docs = atLeast(300);
    try (HybridDirectory dir = directBuilder(path, 1 + random().nextInt(64)).build()) {
      // Lucene's own stored fields, whose prefetch asks for the chunk; the test codecs may not.
      List<String> values = TestFiles.indexRandomDocuments(dir, docs, true);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        for (int round = 0; round < 20; round++) {
          StoredFields storedFields = reader.storedFields();
          int[] batch = new int[1 + random().nextInt(32)];
          for (int i = 0; i < batch.length; i++) {
            batch[i] = random().nextInt(docs);
            storedFields.prefetch(batch[i]);
          }
          for (int docId : batch) {
            Document doc = storedFields.document(docId);
            int id = Integer.parseInt(doc.get("id"));
            assertEquals("document " + docId, values.get(id), doc.get("body"));
          }
        }
      }
      assertTrue("the codec's reads took blocks", dir.prefetcher().directBlocks().taken() > 0);
      assertEquals(
          dir.prefetcher().directBlocks().taken(), dir.stats().prefetchesTakenFromDirectBlocks());
    }
  }

  /**
   * Threads that prefetch and read through clones while the input, then the directory, is closed:
   * nothing throws but {@link AlreadyClosedException} from the closed input's reads.
   */
  public void testPrefetchesAndReadsRacingClose() throws Exception {
    try (HybridDirectory dir = directBuilder(realTempDir(), 1 + random().nextInt(4)).build()) {
      writeFile(dir, "_0.fdt", 1 << 20);
      IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT);
      CountDownLatch start = new CountDownLatch(1);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        IndexInput clone = in.clone();
        Thread thread =
            new Thread(
                () -> {
                  try {
                    start.await();
                    for (int i = 0; i < 2000; i++) {
                      long offset = random().nextInt(900_000);
                      clone.prefetch(offset, 1 + random().nextInt(64 << 10));
                      clone.seek(offset);
                      assertEquals((byte) offset, clone.readByte());
                    }
                  } catch (AlreadyClosedException expected) {
                    // The input was closed under the reads.
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                });
        threads.add(thread);
        thread.start();
      }
      start.countDown();
      Thread.sleep(random().nextInt(20));
      in.close();
      for (Thread thread : threads) {
        thread.join();
      }
      assertNull("only reads of the closed input may fail", failure.get());
    }
  }

  /**
   * On a file system that refuses {@code O_DIRECT}, as some do with {@code EINVAL}, per-document
   * prefetches go to the page cache: nothing fails, no block is read, and every read is right.
   */
  public void testAFileSystemWithoutDirectReadsFallsBackToThePageCache() throws Exception {
    FilterFileSystemProvider refusing =
        new FilterFileSystemProvider("nodirect://", realTempDir().getFileSystem()) {
          @Override
          public FileChannel newFileChannel(
              Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
              throws IOException {
            if (options.stream().anyMatch(option -> option.toString().equals("DIRECT"))) {
              throw new IOException("Invalid argument: " + path);
            }
            return super.newFileChannel(path, options, attrs);
          }
        };
    Path path = refusing.wrapPath(realTempDir());
    try (HybridDirectory dir = directBuilder(path, 4).build()) {
      assertTrue(dir.toString(), dir.toString().contains("directPrefetchBlocks=4"));
      writeFile(dir, "_0.fdt", 1 << 20);
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        for (int i = 0; i < 20; i++) {
          long offset = random().nextInt(900_000);
          clone.prefetch(offset, 1 + random().nextInt(64 << 10));
          clone.seek(offset);
          readAndCheck(clone, offset, 1 + random().nextInt(20_000));
        }
      }
      assertEquals(0, dir.prefetcher().directBlocks().read());
      assertEquals(0, dir.prefetcher().directBlocks().taken());
      assertEquals(0, dir.stats().prefetchesTakenFromDirectBlocks());
    }
  }
}
