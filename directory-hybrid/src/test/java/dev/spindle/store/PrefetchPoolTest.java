package dev.spindle.store;

import static dev.spindle.store.TestFiles.writeFile;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The prefetch pool: which prefetches reach it and where in the file they read, that resident
 * ranges cost no system call, that a full pool drops instead of blocking, that a prefetched range
 * ends up resident and reads back right after its pages were dropped, that closed inputs and
 * deleted files are harmless, and that directories share a pool whose last close stops its threads.
 * No assertion is about time.
 */
public class PrefetchPoolTest extends LuceneTestCase {

  /** A read that reached a pool thread. */
  private record Read(String file, long offset, long length) {}

  /** Records every read, then does it, then releases one permit of {@link #done}. */
  private final class RecordingReader implements PrefetchReader {
    final List<Read> reads = Collections.synchronizedList(new ArrayList<>());
    final Semaphore done = new Semaphore(0);

    @Override
    public void read(Path file, FileChannel channel, long offset, long length) throws IOException {
      reads.add(new Read(file.getFileName().toString(), offset, length));
      try {
        PrefetchReader.POSITIONAL.read(file, channel, offset, length);
      } finally {
        done.release();
      }
    }
  }

  private static final Prefetcher.ResidencyCheck NEVER_RESIDENT = (input, offset, length) -> false;

  /**
   * With every range taken as not resident, every prefetch of a clone, a slice, a slice of a slice
   * and a file inside a compound file reaches the pool once, at its offset in the file that holds
   * it, for the length asked (at most {@link PrefetchFile#MAX_READ}), if the pool takes that file:
   * stored fields, term vectors and raw vectors, or, with the benchmark seam, every file read to
   * serve searches but metadata and the vectors HNSW search scores.
   */
  public void testPrefetchesReachThePoolAtTheirOffsetInTheFile() throws Exception {
    RecordingReader reader = new RecordingReader();
    boolean everyFile = random().nextBoolean();
    HybridDirectory.Builder builder =
        HybridDirectory.builder(createTempDir())
            .prefetchThreads(1 + random().nextInt(4))
            .directPrefetchBlocks(0)
            .residencyCheck(NEVER_RESIDENT)
            .prefetchReader(reader);
    if (everyFile) {
      builder.poolEverySearchFile();
    }
    try (HybridDirectory dir = builder.build()) {
      for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
        String name = "_0_Lucene103_0." + extension;
        int length = 20_000 + random().nextInt(20_000);
        writeFile(dir, name, length);
        // Vector files stay Lucene's, raw vectors too: their prefetch is Lucene's madvise.
        boolean pooled =
            switch (extension) {
              case "fdt", "tvd" -> true;
              case "vec", "vex", "veq", "veb" -> false;
              default -> everyFile;
            };
        try (IndexInput in = dir.openInput(name, IOContext.DEFAULT)) {
          IndexInput clone = in.clone();
          assertReaches(reader, name, clone.clone(), 0, pooled);
          IndexInput slice = in.slice("slice", 7, length - 7);
          assertReaches(reader, name, slice, 7, pooled);
          assertReaches(reader, name, slice.slice("inner", 3, slice.length() - 3), 10, pooled);
        }
      }
      int length = 100_000;
      writeFile(dir, "_0.cfs", length);
      try (IndexInput cfs = dir.openInput("_0.cfs", IOContext.DEFAULT)) {
        for (String inner : List.of("_0.fdt", "_0_Lucene103_0.tim", "_0.dvd", "_0.fnm")) {
          long offset = random().nextInt(length / 2);
          IndexInput slice = cfs.slice(inner, offset, length / 2, IOContext.DEFAULT);
          boolean pooled = inner.endsWith(".fdt") || (everyFile && inner.endsWith(".fnm") == false);
          assertReaches(reader, "_0.cfs", slice.clone(), offset, pooled);
        }
      }
    }
  }

  private void assertReaches(
      RecordingReader reader, String file, IndexInput in, long start, boolean pooled)
      throws Exception {
    reader.reads.clear();
    long offset = random().nextInt((int) in.length() / 2);
    long length = 1 + random().nextInt((int) (in.length() - offset));
    in.prefetch(offset, length);
    if (pooled == false) {
      assertEquals(file + ": " + reader.reads, 0, reader.reads.size());
      return;
    }
    reader.done.acquire();
    assertEquals(
        List.of(new Read(file, start + offset, Math.min(length, PrefetchFile.MAX_READ))),
        reader.reads);
  }

  /**
   * A resident range enters no pool, and after a run of them the checks, the only system calls a
   * prefetch makes, become rare: far fewer checks than prefetches, none read.
   */
  public void testResidentPrefetchesMakeNoSystemCallAfterARun() throws IOException {
    assertTrue("residency checks need java.lang.foreign", PageResidency.available());
    AtomicInteger checks = new AtomicInteger();
    AtomicInteger residentChecks = new AtomicInteger();
    String name = random().nextBoolean() ? "_0.fdt" : "_0_Lucene103_0.doc";
    HybridDirectory.Builder builder =
        HybridDirectory.builder(createTempDir())
            .prefetchThreads(2)
            .directPrefetchBlocks(0)
            .residencyCheck(
                (input, offset, length) -> {
                  checks.incrementAndGet();
                  boolean resident = PageResidency.isResident(input, offset, length);
                  if (resident) {
                    residentChecks.incrementAndGet();
                  }
                  return resident;
                });
    if (name.endsWith(".doc")) {
      // Postings reach the pool only with the seam that pools every search file.
      builder.poolEverySearchFile();
    }
    try (HybridDirectory dir = builder.build()) {
      int length = 64 << 10;
      writeFile(dir, name, length);
      int prefetches = 10_000;
      try (IndexInput in = dir.openInput(name, IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        // Just written, and read once more here: every page is resident.
        clone.readBytes(new byte[length], 0, length);
        for (int i = 0; i < prefetches; i++) {
          long offset = random().nextInt(length - 1);
          clone.prefetch(offset, 1 + random().nextInt((int) (length - offset)));
        }
      }
      HybridDirectoryStats stats = dir.stats();
      assertEquals(stats.toString(), 0, stats.prefetchesIssued());
      assertEquals(stats.toString(), prefetches, stats.prefetchesResident());
      assertEquals("every check found the range resident", checks.get(), residentChecks.get());
      // The first ALWAYS_CHECKED; after the k-th check beyond them, the next comes after k + 1
      // skips on average, so about sqrt(2n) checks in all. Twice as many would take runs of skips
      // expected to add up to 4n prefetches, half as many runs expected to add up to n/4: either
      // is more than ten standard deviations away from the n made. Outside the bounds, the checks
      // stopped backing off, or stopped coming back.
      int expected = (int) Math.ceil(Math.sqrt(2.0 * prefetches));
      int bound = PrefetchTarget.ALWAYS_CHECKED + 2 * expected + 1;
      assertTrue(
          checks.get() + " checks for " + prefetches + " prefetches",
          checks.get() >= PrefetchTarget.ALWAYS_CHECKED + expected / 2);
      assertTrue(checks.get() + " checks for " + prefetches + " prefetches", checks.get() <= bound);
    }
  }

  /**
   * With the pool's one thread held inside a read and its queue of one full, further prefetches are
   * dropped and counted, and return: a blocking one would hang this test.
   */
  public void testAFullPoolDropsInsteadOfBlocking() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch holding = new CountDownLatch(1);
    PrefetchReader held =
        (file, channel, offset, length) -> {
          holding.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    try (HybridDirectory dir =
        HybridDirectory.builder(createTempDir())
            .prefetchThreads(1)
            .directPrefetchBlocks(0)
            .prefetchQueueCapacity(1)
            .residencyCheck(NEVER_RESIDENT)
            .prefetchReader(held)
            .build()) {
      writeFile(dir, "_0.fdt", 50_000);
      try (IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        clone.prefetch(0, 100);
        holding.await();
        int more = atLeast(50);
        for (int i = 0; i < more; i++) {
          clone.prefetch(random().nextInt(40_000), 100);
        }
        HybridDirectoryStats stats = dir.stats();
        assertEquals(stats.toString(), 2, stats.prefetchesIssued());
        assertEquals(stats.toString(), more - 1, stats.prefetchesDropped());
      } finally {
        release.countDown();
      }
    }
  }

  /**
   * After its pages were dropped, a range is not resident; a prefetch makes it resident through the
   * pool, and it reads back byte for byte. For a mapped file and for one read through NIO.
   */
  public void testAPrefetchedRangeIsResidentAndReadsBackAfterItsPagesWereDropped()
      throws Exception {
    assertTrue("residency checks need java.lang.foreign", PageResidency.available());
    RecordingReader reader = new RecordingReader();
    // The real file system: the test one may make fsync a no-op, and dirty pages cannot be dropped.
    Path path = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    try (HybridDirectory dir =
        HybridDirectory.builder(path)
            .prefetchThreads(1 + random().nextInt(4))
            .directPrefetchBlocks(0)
            .prefetchReader(reader)
            // So that the pool takes the prefetches of the NIO file too, which is no stored fields.
            .poolEverySearchFile()
            .build()) {
      for (String name : List.of("_0.fdt", "_0.bin")) {
        int length = 1 << 20;
        byte[] bytes = new byte[length];
        random().nextBytes(bytes);
        try (var out = dir.createOutput(name, IOContext.DEFAULT)) {
          out.writeBytes(bytes, length);
        }
        dir.sync(List.of(name));
        PageCache.drop(path.resolve(name));
        try (IndexInput in = dir.openInput(name, IOContext.DEFAULT);
            MMapDirectory plain = new MMapDirectory(path);
            IndexInput mapped = plain.openInput(name, IOContext.DEFAULT)) {
          assertEquals(name, name.endsWith(".bin"), dir.stats().nioOpens() > 0);
          IndexInput clone = in.clone();
          long offset = random().nextInt(length / 2) & ~4095L;
          int rangeLength = 4096 + random().nextInt(64 << 10);
          // A plain mapping of the file, never read, to ask which pages are resident.
          assertFalse(name, PageResidency.isResident(mapped, offset, rangeLength));
          reader.reads.clear();
          clone.prefetch(offset, rangeLength);
          reader.done.acquire();
          assertEquals(List.of(new Read(name, offset, rangeLength)), reader.reads);
          assertTrue(name, PageResidency.isResident(mapped, offset, rangeLength));
          byte[] read = new byte[rangeLength];
          clone.seek(offset);
          clone.readBytes(read, 0, rangeLength);
          for (int i = 0; i < rangeLength; i++) {
            assertEquals(name + " byte " + (offset + i), bytes[(int) offset + i], read[i]);
          }
        }
      }
    }
  }

  /**
   * Prefetches after the input was closed, or of a file deleted while open, do nothing harmful: no
   * exception, and the deleted file's open input still reads. A file deleted after its first
   * prefetch read goes on being read through the channel that read opened.
   */
  public void testPrefetchesOfAClosedInputOrADeletedFileAreHarmless() throws Exception {
    RecordingReader reader = new RecordingReader();
    // The real file system, where an open file can be deleted, as on every POSIX system.
    try (HybridDirectory dir =
        HybridDirectory.builder(FilterPath.unwrap(createTempDir()))
            .prefetchThreads(2)
            .directPrefetchBlocks(0)
            .residencyCheck(NEVER_RESIDENT)
            .prefetchReader(reader)
            .build()) {
      writeFile(dir, "_0.fdt", 30_000);
      IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT);
      IndexInput clone = in.clone();
      in.close();
      for (int i = 0; i < 10; i++) {
        clone.prefetch(random().nextInt(20_000), 1000);
      }
      assertEquals("a closed input's prefetches are not read", 0, reader.reads.size());

      for (boolean readBeforeDelete : new boolean[] {true, false}) {
        String name = readBeforeDelete ? "_1.fdt" : "_2.fdt";
        writeFile(dir, name, 30_000);
        try (IndexInput open = dir.openInput(name, IOContext.DEFAULT)) {
          IndexInput openClone = open.clone();
          if (readBeforeDelete) {
            openClone.prefetch(0, 100);
            reader.done.acquire();
          }
          dir.deleteFile(name);
          reader.reads.clear();
          openClone.prefetch(1000, 5000);
          if (readBeforeDelete) {
            reader.done.acquire();
            assertEquals(List.of(new Read(name, 1000, 5000)), reader.reads);
          }
          openClone.seek(20_000);
          assertEquals((byte) 20_000, openClone.readByte());
        }
      }
    }
  }

  /**
   * Threads prefetching through clones while the input, then the directory, is closed: nothing
   * throws but the reads of a closed input, and no pool thread outlives the directory (Lucene's
   * thread-leak check fails the suite otherwise).
   */
  public void testPrefetchesRacingClose() throws Exception {
    HybridDirectory dir =
        HybridDirectory.builder(createTempDir())
            .prefetchThreads(1 + random().nextInt(4))
            .prefetchQueueCapacity(1 + random().nextInt(8))
            .residencyCheck(
                random().nextBoolean() ? NEVER_RESIDENT : Prefetcher.ResidencyCheck.PAGES)
            .build();
    writeFile(dir, "_0.fdt", 200_000);
    IndexInput in = dir.openInput("_0.fdt", IOContext.DEFAULT);
    int threads = 2 + random().nextInt(3);
    CountDownLatch started = new CountDownLatch(threads);
    List<Thread> prefetchers = new ArrayList<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      IndexInput clone = in.clone();
      long seed = random().nextLong();
      Thread thread =
          new Thread(
              () -> {
                java.util.Random random = new java.util.Random(seed);
                started.countDown();
                for (int i = 0; i < 2000; i++) {
                  try {
                    clone.prefetch(random.nextInt(150_000), 1 + random.nextInt(40_000));
                  } catch (Throwable e) {
                    failures.add(e);
                    return;
                  }
                }
              });
      prefetchers.add(thread);
      thread.start();
    }
    started.await();
    if (random().nextBoolean()) {
      in.close();
      dir.close();
    } else {
      dir.close();
      in.close();
    }
    for (Thread thread : prefetchers) {
      thread.join();
    }
    assertEquals("prefetches racing close threw: " + failures, List.of(), failures);
  }

  /**
   * Directories with the same pool size share one pool: closing one leaves it to the other, and
   * closing the last one ends its threads.
   */
  public void testDirectoriesShareAPoolThatTheLastCloseStops() throws Exception {
    int threads = 1 + random().nextInt(3);
    RecordingReader reader = new RecordingReader();
    HybridDirectory first =
        HybridDirectory.builder(createTempDir())
            .prefetchThreads(threads)
            .directPrefetchBlocks(0)
            .residencyCheck(NEVER_RESIDENT)
            .prefetchReader(reader)
            .build();
    HybridDirectory second =
        HybridDirectory.builder(createTempDir())
            .prefetchThreads(threads)
            .directPrefetchBlocks(0)
            .residencyCheck(NEVER_RESIDENT)
            .prefetchReader(reader)
            .build();
    writeFile(first, "_0.fdt", 10_000);
    writeFile(second, "_0.fdt", 10_000);
    try (IndexInput a = first.openInput("_0.fdt", IOContext.DEFAULT);
        IndexInput b = second.openInput("_0.fdt", IOContext.DEFAULT)) {
      a.clone().prefetch(0, 100);
      reader.done.acquire();
      List<Thread> poolThreads = poolThreads();
      assertFalse("a pool thread runs", poolThreads.isEmpty());
      first.close();
      b.clone().prefetch(0, 100);
      reader.done.acquire();
      assertEquals(1, second.stats().prefetchesIssued());
      assertEquals(0, second.stats().prefetchesDropped());
      poolThreads.addAll(poolThreads());
      second.close();
      for (Thread thread : poolThreads) {
        thread.join();
      }
      assertEquals("pool threads after the last close", List.of(), poolThreads());
      b.clone().prefetch(0, 100);
      assertEquals("a stopped pool drops", 1, second.stats().prefetchesDropped());
    }
  }

  private static List<Thread> poolThreads() {
    List<Thread> found = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith("spindle-prefetch-") && thread.isAlive()) {
        found.add(thread);
      }
    }
    return found;
  }

  public void testPrefetchThreadsAreValidatedAndReported() throws IOException {
    HybridDirectory.Builder builder = HybridDirectory.builder(createTempDir());
    expectThrows(IllegalArgumentException.class, () -> builder.prefetchThreads(-1));
    expectThrows(IllegalArgumentException.class, () -> builder.directPrefetchBlocks(-1));
    expectThrows(
        IllegalArgumentException.class,
        () -> builder.directPrefetchBlocks(HybridDirectory.MAX_DIRECT_PREFETCH_BLOCKS + 1));
    expectThrows(
        IllegalArgumentException.class,
        () -> builder.prefetchThreads(HybridDirectory.MAX_PREFETCH_THREADS + 1));
    int threads = random().nextInt(5);
    try (HybridDirectory dir = builder.prefetchThreads(threads).build()) {
      assertEquals(threads, dir.stats().prefetchThreads());
      assertTrue(
          dir.stats().toString(), dir.stats().toString().contains("prefetchThreads=" + threads));
      assertEquals(threads > 0, dir.toString().contains("prefetchThreads=" + threads));
    }
    try (HybridDirectory dir = HybridDirectory.builder(createTempDir()).build()) {
      assertEquals(HybridDirectory.DEFAULT_PREFETCH_THREADS, dir.stats().prefetchThreads());
      assertEquals("a pool by default", 16, dir.stats().prefetchThreads());
    }
  }
}
