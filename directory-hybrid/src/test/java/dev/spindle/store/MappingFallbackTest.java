package dev.spindle.store;

import static dev.spindle.store.TestFiles.isMapped;
import static dev.spindle.store.TestFiles.writeFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * What {@link HybridDirectory} does when a file cannot be memory-mapped ({@link MappingFallback}):
 * the fallback to NIO, its counts per {@link MappingFailure} cause and its one warning per cause,
 * the error that names the file when the fallback is off, and the errors that never fall back.
 */
public class MappingFallbackTest extends LuceneTestCase {

  public void testInjectedMappingFailureFallsBackToNio() throws IOException {
    Map<MappingFailure, AtomicInteger> injected = new EnumMap<>(MappingFailure.class);
    for (MappingFailure cause : MappingFailure.values()) {
      injected.put(cause, new AtomicInteger());
    }
    long salt = random().nextLong();
    List<String> logged = captureFallbackWarnings();
    try (HybridDirectory dir =
        HybridDirectory.builder(createTempDir())
            .mappingFailureInjector(
                (name, context) -> {
                  if (name.endsWith(".cfs") || name.endsWith(".tim")) {
                    // Decided by the name, not by random(): IndexWriter opens files from merge
                    // threads too, and the draws must not depend on their timing.
                    MappingFailure cause =
                        MappingFailure.values()[
                            Math.floorMod(name.hashCode() ^ salt, MappingFailure.values().length)];
                    injected.get(cause).incrementAndGet();
                    failMapping(name, cause);
                  }
                })
            .build()) {
      IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
      config.setUseCompoundFile(random().nextBoolean());
      // The class environment randomizes the default codec; this test needs .tim files.
      config.setCodec(TestUtil.getDefaultCodec());
      config.setMergeScheduler(new SerialMergeScheduler());
      int docs = atLeast(100);
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new StringField("id", "id" + i, Field.Store.YES));
          writer.addDocument(doc);
          if (random().nextInt(30) == 0) {
            writer.commit();
          }
        }
        writer.updateDocument(new Term("id", "id3"), new Document());
        writer.commit();
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        for (int i = 0; i < docs; i++) {
          int expected = i == 3 ? 0 : 1;
          assertEquals("id" + i, expected, searcher.count(new TermQuery(new Term("id", "id" + i))));
        }
      }
      long total = 0;
      for (MappingFailure cause : MappingFailure.values()) {
        assertEquals(
            cause.toString(), injected.get(cause).get(), dir.stats().mappingFallbacks(cause));
        total += injected.get(cause).get();
      }
      assertTrue(total > 0);
      assertEquals(total, dir.stats().mappingFallbacks());
    } finally {
      stopCapturingFallbackWarnings();
    }
    long causes = injected.values().stream().filter(count -> count.get() > 0).count();
    assertEquals("one warning per cause: " + logged, causes, logged.size());
    for (String warning : logged) {
      assertTrue(warning, warning.contains("reading it through NIO instead"));
    }
    for (MappingFailure cause : MappingFailure.values()) {
      long warnings = logged.stream().filter(w -> w.contains("(" + cause + ": ")).count();
      assertEquals(cause + " in " + logged, injected.get(cause).get() > 0 ? 1 : 0, warnings);
    }
  }

  /** The cause of a mapping failure is read from the texts the JDK and Lucene give it. */
  public void testMappingFailureCauses() {
    assertEquals(
        MappingFailure.OUT_OF_MAPPINGS,
        MappingFailure.of(new IOException("Map failed", new OutOfMemoryError("Map failed"))));
    assertEquals(
        MappingFailure.OUT_OF_MAPPINGS,
        MappingFailure.of(
            new IOException(
                "Map failed: MemorySegmentIndexInput(path=\"/x/_0.tim\") [this may be caused by"
                    + " lack of enough unfragmented virtual address space]")));
    assertEquals(
        MappingFailure.PERMISSION_DENIED,
        MappingFailure.of(
            new IOException(
                "Permission denied: MemorySegmentIndexInput(path=\"/x/_0.tim\") [this may be"
                    + " caused by lack of enough unfragmented virtual address space]",
                new IOException("Permission denied"))));
    assertEquals(
        MappingFailure.PERMISSION_DENIED,
        MappingFailure.of(new IOException("wrapped", new IOException("Operation not permitted"))));
    assertEquals(MappingFailure.UNSUPPORTED, MappingFailure.of(new IOException("No such device")));
    assertEquals(
        MappingFailure.UNSUPPORTED, MappingFailure.of(new UnsupportedOperationException()));
    assertEquals(MappingFailure.OTHER, MappingFailure.of(new IOException("Input/output error")));
    assertEquals(MappingFailure.OTHER, MappingFailure.of(new IOException()));
  }

  public void testMappingFailureWithoutFallbackNamesTheFile() throws IOException {
    Exception injected =
        random().nextBoolean()
            ? new IOException("Map failed: injected")
            : new UnsupportedOperationException("injected: cannot map");
    List<String> logged = captureFallbackWarnings();
    try (HybridDirectory dir =
        HybridDirectory.builder(createTempDir())
            .mappingFallback(false)
            .mappingFailureInjector(
                (name, context) -> {
                  if (name.endsWith(".tim")) {
                    if (injected instanceof IOException e) {
                      throw e;
                    }
                    throw (UnsupportedOperationException) injected;
                  }
                })
            .build()) {
      writeFile(dir, "_0.tim", 10);
      writeFile(dir, "_0.doc", 10);
      IOException thrown =
          expectThrows(IOException.class, () -> dir.openInput("_0.tim", randomSearchContext()));
      assertTrue(thrown.getMessage(), thrown.getMessage().contains("\"_0.tim\""));
      assertTrue(thrown.getMessage(), thrown.getMessage().contains("fallback to NIO is off"));
      assertSame(injected, thrown.getCause());
      assertEquals(0, dir.stats().mappingFallbacks());
      assertEquals(0, dir.stats().nioOpens());
      assertEquals(0, dir.stats().openMappedInputs());
      // Files that map are unaffected.
      try (IndexInput in = dir.openInput("_0.doc", IOContext.DEFAULT)) {
        assertTrue(isMapped(in));
      }
      assertTrue(dir.toString(), dir.toString().contains("mappingFallback=false"));
    } finally {
      stopCapturingFallbackWarnings();
    }
    assertEquals(List.of(), logged);
  }

  public void testErrorsThatAreNotAboutMappingPropagate() throws IOException {
    List<IOException> failures =
        List.of(
            new FileSystemException("_0.tim", null, "Too many open files"),
            new ClosedByInterruptException(),
            new InterruptedIOException("interrupted"));
    IOException failure = failures.get(random().nextInt(failures.size()));
    try (HybridDirectory dir =
        HybridDirectory.builder(createTempDir())
            .mappingFailureInjector(
                (name, context) -> {
                  throw failure;
                })
            .build()) {
      writeFile(dir, "_0.tim", 10);
      IOException thrown =
          expectThrows(IOException.class, () -> dir.openInput("_0.tim", IOContext.DEFAULT));
      assertSame(failure, thrown);
      assertEquals(0, dir.stats().mappingFallbacks());
      assertEquals(0, dir.stats().nioOpens());
    }
  }

  public void testMissingFileIsNotAFallback() throws IOException {
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      expectThrows(NoSuchFileException.class, () -> dir.openInput("_9.tim", IOContext.DEFAULT));
      expectThrows(NoSuchFileException.class, () -> dir.openInput("_9.fdt", IOContext.DEFAULT));
      assertEquals(0, dir.stats().mappingFallbacks());
    }
  }

  /**
   * Threads that fall back at once are each counted, and each cause is logged once per directory,
   * whichever thread meets it first; another directory logs its own first fallback again.
   */
  public void testConcurrentFallbacksAreCountedExactlyAndEachCauseLoggedOnce() throws Exception {
    Path path = createTempDir();
    MappingFallback fallback = new MappingFallback(path, true);
    int threadCount = TestUtil.nextInt(random(), 2, 6);
    int perThread = atLeast(20);
    MappingFailure[][] causes = new MappingFailure[threadCount][perThread];
    Map<MappingFailure, Long> expected = new EnumMap<>(MappingFailure.class);
    for (MappingFailure[] thread : causes) {
      for (int i = 0; i < perThread; i++) {
        thread[i] = MappingFailure.values()[random().nextInt(MappingFailure.values().length)];
        expected.merge(thread[i], 1L, Long::sum);
      }
    }
    List<String> logged = captureFallbackWarnings();
    try (Directory nio = new NIOFSDirectory(path)) {
      writeFile(nio, "_0.tim", 16);
      CyclicBarrier start = new CyclicBarrier(threadCount);
      Throwable[] failures = new Throwable[threadCount];
      Thread[] threads = new Thread[threadCount];
      for (int t = 0; t < threadCount; t++) {
        MappingFailure[] mine = causes[t];
        int number = t;
        threads[t] =
            new Thread(
                () -> {
                  try {
                    start.await();
                    for (MappingFailure cause : mine) {
                      try (IndexInput in =
                          fallback.open(
                              "_0.tim",
                              () -> failMapping("_0.tim", cause),
                              () -> nio.openInput("_0.tim", IOContext.DEFAULT))) {
                        assertEquals(16, in.length());
                      }
                    }
                  } catch (Throwable e) {
                    failures[number] = e;
                  }
                });
        threads[t].start();
      }
      for (Thread thread : threads) {
        thread.join();
      }
      for (Throwable failure : failures) {
        if (failure != null) {
          throw new AssertionError("a thread failed to fall back", failure);
        }
      }
      Map<MappingFailure, Long> counted = fallback.countsByCause();
      for (MappingFailure cause : MappingFailure.values()) {
        assertEquals(cause.toString(), expected.getOrDefault(cause, 0L), counted.get(cause));
        long warnings = logged.stream().filter(w -> w.contains("(" + cause + ": ")).count();
        assertEquals(cause + " in " + logged, expected.containsKey(cause) ? 1 : 0, warnings);
      }
      assertEquals(logged.toString(), expected.size(), logged.size());

      MappingFailure again = causes[0][0];
      MappingFallback another = new MappingFallback(path, true);
      another
          .open(
              "_0.tim",
              () -> failMapping("_0.tim", again),
              () -> nio.openInput("_0.tim", IOContext.DEFAULT))
          .close();
      assertEquals(logged.toString(), expected.size() + 1, logged.size());
    } finally {
      stopCapturingFallbackWarnings();
    }
  }

  /**
   * When NIO cannot open the file either, its error is thrown with the mapping failure suppressed
   * in it, and nothing is counted or logged: no input was opened.
   */
  public void testNioFailureCarriesTheMappingFailure() throws IOException {
    MappingFallback fallback = new MappingFallback(createTempDir(), true);
    IOException mappingFailure = new IOException("Map failed: injected");
    IOException nioFailure = new IOException("injected: NIO fails too");
    List<String> logged = captureFallbackWarnings();
    try {
      IOException thrown =
          expectThrows(
              IOException.class,
              () ->
                  fallback.open(
                      "_0.tim",
                      () -> {
                        throw mappingFailure;
                      },
                      () -> {
                        throw nioFailure;
                      }));
      assertSame(nioFailure, thrown);
      assertEquals(List.of(mappingFailure), Arrays.asList(thrown.getSuppressed()));
    } finally {
      stopCapturingFallbackWarnings();
    }
    assertEquals(List.of(), logged);
    for (long count : fallback.countsByCause().values()) {
      assertEquals(0, count);
    }
  }

  private static IOContext randomSearchContext() {
    return random().nextBoolean() ? IOContext.DEFAULT : newIOContext(random());
  }

  /**
   * Throws what the JDK or Lucene would throw for a mapping of {@code name} failing of {@code
   * cause}.
   */
  private static IndexInput failMapping(String name, MappingFailure cause) throws IOException {
    if (cause == MappingFailure.UNSUPPORTED) {
      throw new UnsupportedOperationException("injected: cannot map " + name);
    }
    throw new IOException(
        switch (cause) {
          case OUT_OF_MAPPINGS -> "Map failed: injected for " + name;
          case PERMISSION_DENIED -> "Permission denied: injected for " + name;
          default -> "injected: something else for " + name;
        });
  }

  private static final java.util.logging.Logger FALLBACK_LOGGER =
      java.util.logging.Logger.getLogger(HybridDirectory.class.getName());
  private static Handler capturing;

  private static List<String> captureFallbackWarnings() {
    List<String> messages = Collections.synchronizedList(new ArrayList<>());
    capturing =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
              messages.add(record.getMessage());
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    FALLBACK_LOGGER.addHandler(capturing);
    FALLBACK_LOGGER.setUseParentHandlers(false);
    return messages;
  }

  private static void stopCapturingFallbackWarnings() {
    FALLBACK_LOGGER.removeHandler(capturing);
    FALLBACK_LOGGER.setUseParentHandlers(true);
  }
}
