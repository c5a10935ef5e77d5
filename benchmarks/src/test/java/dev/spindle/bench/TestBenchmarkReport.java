package dev.spindle.bench;

import dev.spindle.bench.measure.ReadAhead;
import dev.spindle.bench.report.Section;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The run's read-ahead, with a temporary file standing in for the disk's read_ahead_kb. */
public class TestBenchmarkReport extends LuceneTestCase {
  private Path workDir;
  private Path queue;
  private ReadAhead readAhead;

  @Override
  public void setUp() throws Exception {
    super.setUp();
    workDir = createTempDir();
    Path sys = createTempDir();
    queue = sys.resolve("read_ahead_kb");
    Files.writeString(queue, "8192\n", StandardCharsets.US_ASCII);
    readAhead = ReadAhead.of(queue, sys.resolve("record"), "disk");
  }

  /** A failed trial: its section says so, the run goes on, and the read-ahead is put back. */
  public void testFailedTrialPutsTheReadAheadBack() throws IOException {
    List<String> seen = new ArrayList<>();
    Benchmark failing = benchmark("failing", seen, new IOException("the trial's JVM died"));
    Benchmark next = benchmark("next", seen, null);
    List<String> failed = new ArrayList<>();
    String report = BenchmarkReport.report(options(List.of(failing, next)), readAhead, failed);
    assertEquals("every trial ran at a server's read-ahead", List.of("128", "128"), seen);
    assertEquals("8192", read(queue));
    assertEquals(List.of("failing"), failed);
    assertTrue(report, report.contains("- **Read-ahead:** 128 KiB on disk, set for this run"));
    assertTrue(report, report.contains("the device's own: 8192 KiB"));
    assertTrue(report, report.contains("## failing: did not complete"));
  }

  /** A failure the run does not catch, as an OutOfMemoryError, puts it back on its way out. */
  public void testFailureThatEndsTheRunPutsTheReadAheadBack() {
    List<String> seen = new ArrayList<>();
    Benchmark failing = benchmark("failing", seen, new TrialError());
    expectThrows(
        TrialError.class,
        () -> BenchmarkReport.report(options(List.of(failing)), readAhead, new ArrayList<>()));
    assertEquals(List.of("128"), seen);
    assertEquals("8192", read(queue));
  }

  private static final class TrialError extends Error {}

  private BenchmarkReport.Options options(List<Benchmark> benchmarks) {
    return new BenchmarkReport.Options(
        Mode.QUICK, benchmarks, workDir, OptionalInt.of(ReadAhead.SERVER_KIB));
  }

  /** A benchmark that notes the read-ahead its trial ran at, then throws {@code failure}. */
  private Benchmark benchmark(String name, List<String> seen, Throwable failure) {
    return new Benchmark() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Section run(Mode mode, Path dir) throws IOException {
        seen.add(read(queue));
        if (failure instanceof IOException e) {
          throw e;
        } else if (failure instanceof Error e) {
          throw e;
        }
        return new Section(name).text("ran\n");
      }
    };
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
