package dev.spindle.store;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** Files and inputs for this package's tests. */
final class TestFiles {

  private TestFiles() {}

  /**
   * Writes a file of {@code length} bytes whose byte {@code i} is {@code (byte) i}, so that a read
   * at any offset, through any clone or slice, can be checked.
   */
  static void writeFile(Directory dir, String name, int length) throws IOException {
    try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
      for (int i = 0; i < length; i++) {
        out.writeByte((byte) i);
      }
    }
  }

  /** Whether {@code in} reads a mapping: mapped inputs, clones and slices are Lucene's own. */
  static boolean isMapped(IndexInput in) {
    return FilterIndexInput.unwrap(in).getClass().getName().contains("MemorySegmentIndexInput");
  }

  /** Whether {@code in} is wrapped to see its prefetches: a pool's or a clipping wrapper. */
  static boolean seesPrefetches(IndexInput in) {
    return in instanceof PrefetchInput;
  }

  /**
   * Reads {@code bytes} bytes from {@code in}, positioned at {@code offset} of a file that {@link
   * #writeFile} wrote, with random kinds of reads and skips, and checks each against the file.
   */
  static void readAndCheck(IndexInput in, long offset, int bytes) throws IOException {
    readAndCheck(in, offset, bytes, true);
  }

  /**
   * {@link #readAndCheck(IndexInput, long, int)}, with skips (which seek) only if {@code skips}: a
   * seek of a per-document file that misses the page cache counts as a miss of its region.
   */
  static void readAndCheck(IndexInput in, long offset, int bytes, boolean skips)
      throws IOException {
    long end = offset + bytes;
    while (in.getFilePointer() < end) {
      long at = in.getFilePointer();
      String where = in + " at " + at;
      switch (LuceneTestCase.random().nextInt(skips ? 6 : 5)) {
        case 0 -> assertEquals(where, (byte) at, in.readByte());
        case 1 -> {
          byte[] read = new byte[1 + LuceneTestCase.random().nextInt(10_000)];
          in.readBytes(read, 0, read.length);
          for (int i = 0; i < read.length; i++) {
            assertEquals(where + "+" + i, (byte) (at + i), read[i]);
          }
        }
        case 2 -> assertEquals(where, littleEndian(at, Integer.BYTES), in.readInt() & 0xFFFFFFFFL);
        case 3 -> assertEquals(where, littleEndian(at, Long.BYTES), in.readLong());
        case 4 -> assertEquals(where, littleEndian(at, Short.BYTES), in.readShort() & 0xFFFFL);
        default -> {
          int skip = LuceneTestCase.random().nextInt(3000);
          in.skipBytes(skip);
          assertEquals(where, at + skip, in.getFilePointer());
        }
      }
    }
  }

  /** The value of {@code bytes} bytes at {@code at} of a file whose byte i is (byte) i. */
  private static long littleEndian(long at, int bytes) {
    long value = 0;
    for (int i = 0; i < bytes; i++) {
      value |= ((at + i) & 0xFFL) << (8 * i);
    }
    return value;
  }

  /**
   * Indexes {@code docs} documents with Lucene's default codec, each with a stored {@code id} and a
   * stored {@code body} of random size (one in 50 larger than a direct block), in segments with or
   * without compound files, merged down to one to three; returns the bodies by id.
   */
  static List<String> indexRandomDocuments(Directory dir, int docs, boolean commitNowAndThen)
      throws IOException {
    Random random = LuceneTestCase.random();
    List<String> values = new ArrayList<>();
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(TestUtil.getDefaultCodec())
            .setUseCompoundFile(random.nextBoolean());
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int i = 0; i < docs; i++) {
        int size = random.nextInt(50) == 0 ? 150_000 : random.nextInt(3000);
        String value = TestUtil.randomSimpleString(random, size, size);
        values.add(value);
        Document doc = new Document();
        doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
        doc.add(new StoredField("body", value));
        writer.addDocument(doc);
        if (commitNowAndThen && random.nextInt(100) == 0) {
          writer.commit();
        }
      }
      writer.forceMerge(1 + random.nextInt(3));
    }
    return values;
  }
}
