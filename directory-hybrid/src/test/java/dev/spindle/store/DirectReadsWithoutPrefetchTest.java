package dev.spindle.store;

import static dev.spindle.store.TestFiles.readAndCheck;
import static dev.spindle.store.TestFiles.writeFile;

import java.io.EOFException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Reads of per-document data that no prefetch announced, with direct blocks: a seek to a page that
 * is not resident reads from there with one {@code O_DIRECT} read through a free slot, and the
 * reads that follow see the file's bytes, up to the end of a slice and no further; a resident page,
 * no free slot, or an interrupted reader leave the read to the mapping, and the slot always comes
 * back. The files are on the real file system, where {@code O_DIRECT} works.
 */
public class DirectReadsWithoutPrefetchTest extends LuceneTestCase {

  private static final Prefetcher.ResidencyCheck NEVER_RESIDENT = (input, offset, length) -> false;

  private static HybridDirectory.Builder directBuilder(
      int slots, Prefetcher.ResidencyCheck residency) {
    return HybridDirectory.builder(FilterPath.unwrap(createTempDir()).toAbsolutePath())
        .prefetchThreads(1 + random().nextInt(4))
        .directPrefetchBlocks(slots)
        .residencyCheck(residency);
  }

  /**
   * Seeks to random places of a stored-fields file, each followed by random reads that may run past
   * what one direct read holds: each seek is one direct read, every byte is the file's, and every
   * slot is free afterwards.
   */
  public void testSeeksToAbsentPagesReadFromThereDirectly() throws Exception {
    int length = 1 << 20;
    int slots = 1 + random().nextInt(4);
    try (HybridDirectory dir = directBuilder(slots, NEVER_RESIDENT).build()) {
      writeFile(dir, "_0.fdt", length);
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        int seeks = 1 + random().nextInt(20);
        List<Integer> regions = new ArrayList<>();
        for (int region = 0; region < (length - (200 << 10)) / PageCacheAdmission.REGION_BYTES; ) {
          regions.add(region++);
        }
        Collections.shuffle(regions, random());
        for (int i = 0; i < seeks; i++) {
          // A new clone has no block, so that the seek cannot land in the last one's; a region of
          // its own, since a second miss in a region is read into the page cache.
          IndexInput clone = in.clone();
          long offset =
              (long) regions.get(i) * PageCacheAdmission.REGION_BYTES
                  + random().nextInt(PageCacheAdmission.REGION_BYTES);
          long before = dir.stats().directReadsWithoutPrefetch();
          clone.seek(offset);
          assertEquals(
              "one direct read per seek", before + 1, dir.stats().directReadsWithoutPrefetch());
          assertEquals((byte) offset, clone.readByte());
          readAndCheck(
              clone,
              offset + 1,
              random().nextInt(DirectBlockInput.UNPREFETCHED_READ_BYTES * 2),
              false);
        }
        assertTrue(
            dir.stats().toString(), dir.stats().toString().contains("directReadsWithoutPrefetch="));
      }
      assertFreeSlots(dir, slots);
    }
  }

  /**
   * A region read three times while not resident: read around the page cache, then into it through
   * the mapping (admitted), then, having failed to stay resident, around it again; every byte is
   * the file's.
   */
  public void testTheSecondMissOfARegionIsReadIntoThePageCache() throws Exception {
    try (HybridDirectory dir = directBuilder(2, NEVER_RESIDENT).build()) {
      writeFile(dir, "_0.fdt", 1 << 20);
      long region = random().nextInt(50) * (long) PageCacheAdmission.REGION_BYTES;
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        int[][] expected = {{1, 0}, {1, 1}, {2, 1}}; // direct reads, reads admitted
        for (int miss = 0; miss < 3; miss++) {
          IndexInput clone = in.clone();
          long offset = region + random().nextInt(PageCacheAdmission.REGION_BYTES);
          clone.seek(offset);
          readAndCheck(clone, offset, 1 + random().nextInt(20_000), false);
          String what = "miss " + (miss + 1) + ": " + dir.stats();
          assertEquals(what, expected[miss][0], dir.stats().directReadsWithoutPrefetch());
          assertEquals(what, expected[miss][1], dir.stats().readsAdmittedToPageCache());
        }
      }
    }
  }

  /**
   * With the real residency check, on a file dropped from the page cache: the first read of a
   * region goes around the page cache, the second leaves its pages resident, and the reads after
   * that are the mapping's, with no device read of their own. An index that fits in memory becomes
   * resident, as on any other directory.
   */
  public void testARegionReadTwiceBecomesResident() throws Exception {
    try (HybridDirectory dir = directBuilder(2, Prefetcher.ResidencyCheck.PAGES).build()) {
      writeFile(dir, "_0.fdt", 1 << 20);
      dir.sync(List.of("_0.fdt"));
      PageCache.drop(dir.getDirectory().resolve("_0.fdt"));
      long offset = random().nextInt(50) * (long) PageCacheAdmission.REGION_BYTES;
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        assumeTrue("the kernel dropped the pages", in.isLoaded().orElse(true) == false);
        for (int read = 0; read < 2 + random().nextInt(5); read++) {
          IndexInput clone = in.clone();
          clone.seek(offset);
          readAndCheck(clone, offset, 1 + random().nextInt(4096), false);
        }
        assertEquals(dir.stats().toString(), 1, dir.stats().directReadsWithoutPrefetch());
        assertEquals(dir.stats().toString(), 1, dir.stats().readsAdmittedToPageCache());
        IndexInput mapped = FilterIndexInput.unwrap(in.clone());
        assertTrue("resident after its second read", PageResidency.isResident(mapped, offset, 1));
      }
    }
  }

  /**
   * A slice that ends inside what one direct read would hold: its reads stop at its end, as the
   * mapping's do, and the bytes before it are the file's.
   */
  public void testADirectReadStopsAtTheEndOfItsSlice() throws Exception {
    try (HybridDirectory dir = directBuilder(2, NEVER_RESIDENT).build()) {
      writeFile(dir, "_0.fdt", 1 << 20);
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        long sliceStart = random().nextInt(100_000);
        long sliceLength = 1 + random().nextInt(DirectBlockInput.UNPREFETCHED_READ_BYTES);
        IndexInput slice = in.slice("inner", sliceStart, sliceLength);
        long pos = random().nextLong(sliceLength);
        slice.seek(pos);
        assertEquals(1, dir.stats().directReadsWithoutPrefetch());
        byte[] rest = new byte[(int) (sliceLength - pos)];
        slice.readBytes(rest, 0, rest.length);
        for (int i = 0; i < rest.length; i++) {
          assertEquals("byte " + (pos + i), (byte) (sliceStart + pos + i), rest[i]);
        }
        expectThrows(EOFException.class, slice::readByte);
        slice.seek(sliceLength); // a seek to the end reads nothing
        expectThrows(EOFException.class, slice::readByte);
      }
    }
  }

  /**
   * Resident pages are the mapping's: seeks and reads make no direct read, and once a run of checks
   * found them resident most seeks are not even checked.
   */
  public void testResidentPagesAreLeftToTheMapping() throws Exception {
    AtomicInteger checks = new AtomicInteger();
    Prefetcher.ResidencyCheck resident =
        (input, offset, length) -> {
          checks.incrementAndGet();
          return true;
        };
    try (HybridDirectory dir = directBuilder(4, resident).build()) {
      writeFile(dir, "_0.tvd", 1 << 20);
      try (IndexInput in = dir.openInput("_0.tvd", IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        int seeks = 1000;
        for (int i = 0; i < seeks; i++) {
          long offset = random().nextInt(1 << 20);
          clone.seek(offset);
          assertEquals((byte) offset, clone.readByte());
        }
        assertEquals(0, dir.stats().directReadsWithoutPrefetch());
        assertTrue("checks back off: " + checks, checks.get() < seeks / 4);
        assertTrue("checks start: " + checks, checks.get() >= PrefetchTarget.ALWAYS_CHECKED);
      }
    }
  }

  /**
   * With its one slot holding a prefetched block nobody took yet, a read elsewhere goes through the
   * mapping and leaves the block alone: the read it was prefetched for still takes it.
   */
  public void testAReadWithoutPrefetchNeverEvictsAPrefetchedBlock() throws Exception {
    try (HybridDirectory dir = directBuilder(1, NEVER_RESIDENT).build()) {
      writeFile(dir, "_0.fdt", 1 << 20);
      DirectBlocks blocks = dir.prefetcher().directBlocks();
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        long prefetched = random().nextInt(100_000);
        clone.prefetch(prefetched, 1 + random().nextInt(32 << 10));
        while (blocks.read() < 1) {
          Thread.onSpinWait(); // one positional read; the test's own timeout bounds this
        }
        long elsewhere = 500_000 + random().nextInt(100_000);
        clone.seek(elsewhere);
        readAndCheck(clone, elsewhere, 1 + random().nextInt(10_000));
        assertEquals("no slot was free", 0, dir.stats().directReadsWithoutPrefetch());
        clone.seek(prefetched);
        readAndCheck(clone, prefetched, 100);
        assertEquals("the block was still there", 1, blocks.taken());
      }
      assertFreeSlots(dir, 1);
    }
  }

  /**
   * A reader whose thread is interrupted reads through the mapping, keeps its interrupt, and does
   * not leave the file without direct reads: the next reader's read is direct again.
   */
  public void testAnInterruptedReaderLeavesDirectReadsWorking() throws Exception {
    try (HybridDirectory dir = directBuilder(2, NEVER_RESIDENT).build()) {
      writeFile(dir, "_0.fdt", 1 << 20);
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        clone.seek(1000); // opens the direct channel
        assertEquals(1, dir.stats().directReadsWithoutPrefetch());
        Thread.currentThread().interrupt();
        try {
          clone.seek(300_000);
          assertEquals((byte) 300_000, clone.readByte());
          assertTrue("the interrupt is kept", Thread.currentThread().isInterrupted());
        } finally {
          Thread.interrupted();
        }
        assertEquals(1, dir.stats().directReadsWithoutPrefetch());
        clone.seek(600_000);
        assertEquals((byte) 600_000, clone.readByte());
        assertEquals("read directly again", 2, dir.stats().directReadsWithoutPrefetch());
      }
      assertFreeSlots(dir, 2);
    }
  }

  /**
   * Documents of random sizes, in segments with and without compound files, read back one at a time
   * without prefetches: every stored value is the one written, through direct reads.
   */
  public void testStoredFieldsReadBackWithoutPrefetches() throws Exception {
    int docs = atLeast(300);
    try (HybridDirectory dir = directBuilder(1 + random().nextInt(8), NEVER_RESIDENT).build()) {
      List<String> values = TestFiles.indexRandomDocuments(dir, docs, false);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        StoredFields storedFields = reader.storedFields();
        for (int i = 0; i < 100; i++) {
          int docId = random().nextInt(docs);
          Document doc = storedFields.document(docId);
          assertEquals(
              "document " + docId, values.get(Integer.parseInt(doc.get("id"))), doc.get("body"));
        }
      }
      assertTrue(dir.stats().toString(), dir.stats().directReadsWithoutPrefetch() > 0);
    }
  }

  private static void assertFreeSlots(HybridDirectory dir, int slots) {
    DirectBlocks blocks = dir.prefetcher().directBlocks();
    for (int i = 0; i < slots; i++) {
      assertNotNull("slot " + i + " came back", blocks.takeFree());
    }
  }
}
