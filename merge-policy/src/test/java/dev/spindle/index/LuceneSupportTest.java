package dev.spindle.index;

import java.io.IOException;
import org.apache.lucene.codecs.CompoundDirectory;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Version;

/**
 * The Lucene release check and the compound-reader call that differs between Lucene 10.0 and later
 * releases. The build runs this suite on Lucene 10.0.0, 10.5.1 and the release it compiles against,
 * so each run checks the path its own release takes.
 */
public class LuceneSupportTest extends LuceneTestCase {

  /** The build swaps the Lucene jars for its older-release runs: make sure it did. */
  public void testRunsOnTheLuceneTheBuildChose() {
    String expected = System.getProperty("tests.luceneVersion");
    assumeTrue("run by the build, which sets tests.luceneVersion", expected != null);
    assertEquals(expected, Version.LATEST.toString());
  }

  /** Lucene 10.0 takes an IOContext to open a compound file; 10.1 dropped it. */
  public void testCompoundReaderPathMatchesTheRelease() throws IOException {
    assertEquals(
        Version.LATEST.onOrAfter(Version.fromBits(10, 1, 0)) == false,
        LuceneSupport.compoundReaderTakesAContext());
    try (Directory directory = newDirectory()) {
      IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
      config.setUseCompoundFile(true);
      config.setMergePolicy(NoMergePolicy.INSTANCE);
      int docs = atLeast(10);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new StoredField("stored", i));
          writer.addDocument(doc);
        }
      }
      SegmentInfo segment = SegmentInfos.readLatestCommit(directory).info(0).info;
      assertTrue(segment.getUseCompoundFile());
      try (CompoundDirectory compound = LuceneSupport.openCompoundReader(directory, segment)) {
        long bytes = 0;
        for (String entry : compound.listAll()) {
          bytes += compound.fileLength(entry);
        }
        assertTrue(bytes > 0);
        assertTrue(bytes < directory.fileLength(segment.name + ".cfs"));
        assertEquals(bytes, new SegmentDataSize().of(segment));
      }
    }
  }

  public void testTheRunningLuceneIsSupported() {
    assertNull(LuceneSupport.unsupportedReason(Version.LATEST, LuceneSupport.MINIMUM));
    LuceneSupport.ensureSupported();
    new CompoundCapMergePolicy(newMergePolicy());
  }

  public void testSupportedRange() {
    Version minimum = LuceneSupport.MINIMUM;
    assertEquals(Version.fromBits(10, 0, 0), minimum);
    for (Version supported :
        new Version[] {minimum, Version.fromBits(10, 5, 1), Version.fromBits(10, 9, 0)}) {
      assertNull(supported.toString(), LuceneSupport.unsupportedReason(supported, minimum));
    }
    for (Version unsupported :
        new Version[] {Version.fromBits(9, 12, 1), Version.fromBits(11, 0, 0)}) {
      String reason = LuceneSupport.unsupportedReason(unsupported, minimum);
      assertNotNull(unsupported.toString(), reason);
      assertTrue(reason, reason.contains("Lucene on the classpath is " + unsupported));
      assertTrue(reason, reason.contains("runs on Lucene 10.0.0 and later 10.x releases"));
    }
  }
}
