package dev.spindle.bench.keyword;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The JMH benchmark behind {@link KeywordFieldBenchmark}: one thread indexes {@link GeonamesRows}
 * documents, built the way {@link #setup} says, into an in-memory index. One operation is one
 * document.
 *
 * <p>Each measurement iteration starts a new index. Each invocation indexes {@value #SEGMENT_DOCS}
 * documents and flushes them to a segment, on the indexing thread: every invocation does the same
 * work, flush included, as a refresh would, so that iterations do not differ by whether a flush
 * fell into them. Segments are never merged, so that no background thread competes for the two
 * cores.
 *
 * <p>Public because JMH's generated code extends it.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class KeywordFieldIndexing {

  /** Documents per invocation, which ends with a flush: every invocation writes one segment. */
  static final int SEGMENT_DOCS = 50_000;

  static final int ROWS = 100_000;
  static final long SEED = 0x6E0_4A_3E5L;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Which contender this fork measures; {@link KeywordFieldBenchmark} sets it. */
  @Param({"SPINDLE_BYTES"})
  public KeywordSetup setup;

  private GeonamesRows rows;
  private KeywordSetup.RowDocuments documents;
  private Directory directory;
  private IndexWriter writer;
  private int nextRow;

  @Setup(Level.Trial)
  public void buildRows() throws IOException {
    rows = GeonamesRows.build(ROWS, SEED);
    documents = setup.newDocuments();
  }

  @Setup(Level.Iteration)
  public void openWriter() throws IOException {
    directory = new ByteBuffersDirectory();
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH)
            .setRAMBufferSizeMB(256)
            .setMergePolicy(NoMergePolicy.INSTANCE)
            .setCommitOnClose(false);
    writer = new IndexWriter(directory, config);
  }

  @TearDown(Level.Iteration)
  public void closeWriter() throws IOException {
    writer.rollback();
    directory.close();
  }

  @Benchmark
  @OperationsPerInvocation(SEGMENT_DOCS)
  public long index(CpuTime cpuTime) throws IOException {
    long cpuStart = THREADS.getCurrentThreadCpuTime();
    long seqNo = 0;
    for (int i = 0; i < SEGMENT_DOCS; i++) {
      seqNo = writer.addDocument(documents.document(rows, nextRow));
      nextRow = nextRow + 1 == rows.rowCount() ? 0 : nextRow + 1;
    }
    writer.flush();
    cpuTime.indexingCpuNanos += THREADS.getCurrentThreadCpuTime() - cpuStart;
    cpuTime.indexedDocs += SEGMENT_DOCS;
    return seqNo;
  }

  /**
   * The CPU time of the indexing thread and the documents it indexed, as JMH secondary results:
   * documents per CPU second is much less sensitive than documents per second to other processes
   * competing for the cores. It leaves out what other threads do for the indexing thread (the
   * garbage collector, the JIT compiler), which the allocation figures account for.
   *
   * <p>Public because JMH's generated code reads its fields.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class CpuTime {
    public long indexingCpuNanos;
    public long indexedDocs;

    @Setup(Level.Iteration)
    public void clear() {
      indexingCpuNanos = 0;
      indexedDocs = 0;
    }
  }
}
