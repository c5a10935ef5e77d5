package dev.spindle.store;

import static dev.spindle.store.TestFiles.writeFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.MergeInfo;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Without a prefetch pool, every input a {@link HybridDirectory} returns, and every clone and slice
 * of it, compound-file slices included, passes {@link IndexInput#prefetch} on to the mapping, which
 * turns it into {@code madvise(MADV_WILLNEED)}. A counting hook wraps each input Lucene maps and
 * records the prefetches that reach it: by default every one arrives as asked; with the benchmark's
 * per-document window, drawn at random here, per-document data arrives clipped to it. {@link
 * PrefetchPoolTest} covers the pool.
 */
public class PrefetchForwardingTest extends LuceneTestCase {

  private static final IOContext MERGE = IOContext.merge(new MergeInfo(10, 1000, false, 1));
  private static final IOContext FLUSH = IOContext.flush(new FlushInfo(10, 1000));
  private static final long WINDOW = 8 << 10;

  /** A prefetch that reached a mapping: which mapped input (by identity), where and how much. */
  private record Reached(Object mapping, long offset, long length) {}

  /**
   * Stands for the mapping: records each prefetch, then passes it to Lucene's mapped input, whose
   * prefetch is the madvise. Clones and slices share the record and name the input they came from.
   */
  private static final class CountingInput extends FilterIndexInput {
    private final List<Reached> reached;

    CountingInput(IndexInput mapped, List<Reached> reached) {
      super(mapped.toString(), mapped);
      this.reached = reached;
    }

    @Override
    public void prefetch(long offset, long length) throws IOException {
      reached.add(new Reached(this, offset, length));
      in.prefetch(offset, length);
    }

    @Override
    public IndexInput clone() {
      return new CountingInput(in.clone(), reached);
    }

    @Override
    public IndexInput slice(String description, long offset, long length) throws IOException {
      return new CountingInput(in.slice(description, offset, length), reached);
    }

    @Override
    public IndexInput slice(String description, long offset, long length, IOContext context)
        throws IOException {
      return new CountingInput(in.slice(description, offset, length, context), reached);
    }
  }

  private final List<Reached> reached = Collections.synchronizedList(new ArrayList<>());

  /** Whether this test clips per-document prefetches to {@link #WINDOW}; Lucene can madvise. */
  private boolean clipping;

  private HybridDirectory hookedDirectory() throws IOException {
    boolean window = random().nextBoolean();
    clipping = window && MMapDirectory.supportsMadvise();
    HybridDirectory.Builder builder =
        HybridDirectory.builder(createTempDir())
            .prefetchThreads(0)
            .mappedInputHook(mapped -> new CountingInput(mapped, reached));
    return (window ? builder.perDocumentPrefetchWindow(WINDOW) : builder).build();
  }

  public void testInputsClonesAndSlicesOfEveryKindReachTheMapping() throws IOException {
    try (HybridDirectory dir = hookedDirectory()) {
      for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
        String name = "_0_Lucene103_0." + extension;
        int length = (int) (3 * WINDOW) + random().nextInt(10_000);
        writeFile(dir, name, length);
        boolean clipped =
            clipping && FileAccess.of(extension, IOContext.DEFAULT) == FileAccess.PER_DOCUMENT;
        try (IndexInput in = dir.openInput(name, IOContext.DEFAULT)) {
          assertPrefetchReaches(name + " input", in, false, 0);
          IndexInput clone = in.clone();
          assertPrefetchReaches(name + " clone", clone, clipped, 0);
          assertPrefetchReaches(name + " clone of a clone", clone.clone(), clipped, 0);
          IndexInput slice = in.slice("slice", 7, length - 7);
          assertPrefetchReaches(name + " slice", slice, clipped, 7);
          assertPrefetchReaches(name + " clone of a slice", slice.clone(), clipped, 7);
          assertPrefetchReaches(
              name + " slice of a slice", slice.slice("inner", 1, slice.length() - 1), clipped, 8);
        }
      }
    }
  }

  /**
   * A compound file's slices are the files inside it: those of per-document data are clipped, the
   * others are passed on as asked, and all reach the compound file's mapping.
   */
  public void testCompoundFileSlicesReachTheMapping() throws IOException {
    try (HybridDirectory dir = hookedDirectory()) {
      int length = 10 * (int) WINDOW + random().nextInt(10_000);
      writeFile(dir, "_0.cfs", length);
      try (IndexInput cfs = dir.openInput("_0.cfs", IOContext.DEFAULT)) {
        for (String inner : List.of("_0.fdt", "_0.tvd", "_0_Lucene103_0.tim", "_0.dvd", "_0.fdx")) {
          boolean clipped = clipping && (inner.endsWith(".fdt") || inner.endsWith(".tvd"));
          long offset = random().nextInt(length / 2);
          IndexInput slice = cfs.slice(inner, offset, length / 2, IOContext.DEFAULT);
          assertPrefetchReaches(inner + " in a compound file", slice, clipped, offset);
          assertPrefetchReaches(inner + " clone", slice.clone(), clipped, offset);
          IndexInput forMerge =
              cfs.slice(inner, offset, length / 2, random().nextBoolean() ? MERGE : FLUSH);
          assertPrefetchReaches(inner + " for a merge", forMerge, false, offset);
        }
      }
    }
  }

  /**
   * Each prefetch of a clone reaches the same mapped input, once: Lucene's mapped input counts the
   * prefetches that found their pages cached and, after a run of them, checks residency only now
   * and then. An input that created a new mapped clone per prefetch, or asked twice, would lose
   * that.
   */
  public void testEveryPrefetchOfAnInputReachesOneMappedInputOnce() throws IOException {
    try (HybridDirectory dir = hookedDirectory()) {
      String name = random().nextBoolean() ? "_0.fdt" : "_0_Lucene103_0.tim";
      int length = (int) (4 * WINDOW);
      writeFile(dir, name, length);
      try (IndexInput in = dir.openInput(name, IOContext.DEFAULT)) {
        IndexInput clone = in.clone();
        reached.clear();
        int prefetches = atLeast(20);
        for (int i = 0; i < prefetches; i++) {
          long offset = random().nextInt(length);
          clone.prefetch(offset, 1 + random().nextInt(length - (int) offset));
        }
        assertEquals(prefetches, reached.size());
        for (Reached each : reached) {
          assertSame(reached.get(0).mapping(), each.mapping());
        }
      }
    }
  }

  /** Stored fields' own prefetch, from a real segment, compound or not, reaches the mapping. */
  public void testStoredFieldsPrefetchReachesTheMapping() throws IOException {
    try (HybridDirectory dir = hookedDirectory()) {
      IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
      config.setUseCompoundFile(random().nextBoolean());
      config.setMergePolicy(NoMergePolicy.INSTANCE);
      config.setCodec(TestUtil.getDefaultCodec());
      int docs = atLeast(2000);
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
          byte[] body = new byte[50 + random().nextInt(200)];
          random().nextBytes(body);
          doc.add(new StoredField("body", body));
          writer.addDocument(doc);
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        StoredFields storedFields = reader.storedFields();
        reached.clear();
        int doc = random().nextInt(docs);
        storedFields.prefetch(doc);
        assertFalse("the prefetch of document " + doc + " reached no mapping", reached.isEmpty());
        if (clipping) {
          for (Reached each : reached) {
            assertTrue(each + " is longer than the window", each.length() <= WINDOW);
          }
        }
        assertEquals(Integer.toString(doc), storedFields.document(doc).get("id"));
      }
    }
  }

  /**
   * Prefetches from a random place of {@code in} to its end, checks what reached the mapping, then
   * reads a byte there: the file's byte {@code i} is {@code (byte) i}, and {@code in} starts at the
   * file's byte {@code start}.
   */
  private void assertPrefetchReaches(String what, IndexInput in, boolean clipped, long start)
      throws IOException {
    reached.clear();
    long offset = random().nextInt((int) in.length() / 3);
    long length = in.length() - offset;
    in.prefetch(offset, length);
    assertEquals(what + ": " + reached, 1, reached.size());
    Reached prefetch = reached.get(0);
    assertEquals(what, offset, prefetch.offset());
    assertEquals(what, clipped ? Math.min(length, WINDOW) : length, prefetch.length());
    in.seek(offset);
    assertEquals(what, (byte) (start + offset), in.readByte());
  }
}
