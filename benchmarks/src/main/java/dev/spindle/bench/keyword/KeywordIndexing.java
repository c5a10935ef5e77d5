package dev.spindle.bench.keyword;

import dev.spindle.bench.corpus.GeonamesRows;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.management.JMException;
import javax.management.ObjectName;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

/**
 * One setup's indexing, in a JVM of its own: one thread into an in-memory index. Not thread-safe.
 */
public final class KeywordIndexing implements KeywordFieldBenchmark.Service {
  /** Documents per batch, which ends with a flush: every batch writes one segment. */
  static final int SEGMENT_DOCS = 50_000;

  static final int ROWS = 100_000;
  private static final long SEED = 0x6E0_4A_3E5L;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private final GeonamesRows rows;
  private final KeywordSetup.RowDocuments documents;
  private int nextRow;

  public KeywordIndexing(KeywordSetup setup) throws IOException {
    this.rows = GeonamesRows.build(ROWS, SEED);
    this.documents = setup.newDocuments();
  }

  /** The mean rate of the measured iterations; CPU time and bytes per document over them all. */
  @Override
  public KeywordFieldBenchmark.Result run(int warmups, int iterations, long iterationMillis)
      throws IOException {
    double rates = 0;
    long docs = 0;
    long cpuNanos = 0;
    long allocated = 0;
    for (int iteration = 0; iteration < warmups + iterations; iteration++) {
      Iteration measured = iteration(iterationMillis);
      if (iteration >= warmups) {
        rates += measured.docs() / (measured.nanos() / 1e9);
        docs += measured.docs();
        cpuNanos += measured.cpuNanos();
        allocated += measured.allocatedBytes();
      }
    }
    return new KeywordFieldBenchmark.Result(
        rates / iterations, docs / (cpuNanos / 1e9), allocated / (double) docs);
  }

  /** What one iteration did: documents, and the wall time, CPU time and bytes it took. */
  private record Iteration(long docs, long nanos, long cpuNanos, long allocatedBytes) {}

  private Iteration iteration(long millis) throws IOException {
    try (Directory directory = new ByteBuffersDirectory()) {
      IndexWriter writer =
          new IndexWriter(
              directory,
              new IndexWriterConfig()
                  .setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH)
                  .setRAMBufferSizeMB(256)
                  .setMergePolicy(NoMergePolicy.INSTANCE)
                  .setCommitOnClose(false));
      try {
        long start = System.nanoTime();
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        long allocatedStart = allocatedBytes();
        long docs = 0;
        do {
          for (int i = 0; i < SEGMENT_DOCS; i++) {
            writer.addDocument(documents.document(rows, nextRow));
            nextRow = nextRow + 1 == rows.rowCount() ? 0 : nextRow + 1;
          }
          writer.flush();
          docs += SEGMENT_DOCS;
        } while (System.nanoTime() - start < millis * 1_000_000L);
        return new Iteration(
            docs,
            System.nanoTime() - start,
            THREADS.getCurrentThreadCpuTime() - cpuStart,
            allocatedBytes() - allocatedStart);
      } finally {
        writer.rollback();
      }
    }
  }

  /** The bytes this thread allocated so far, through the platform's threading MBean. */
  private static long allocatedBytes() throws IOException {
    try {
      return (Long)
          ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new ObjectName(ManagementFactory.THREAD_MXBEAN_NAME),
                  "getThreadAllocatedBytes",
                  new Object[] {Thread.currentThread().threadId()},
                  new String[] {long.class.getName()});
    } catch (JMException e) {
      throw new IOException("this JVM does not count the bytes a thread allocates", e);
    }
  }

  @Override
  public void close() {}
}
