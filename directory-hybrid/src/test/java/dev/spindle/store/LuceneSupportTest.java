package dev.spindle.store;

import java.io.IOException;
import java.util.Set;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.store.FileTypeHint;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Version;

/**
 * The Lucene release check and the detection of newer Lucene APIs. The build runs this suite on the
 * oldest supported Lucene, on the one OpenSearch ships and on the one it compiles against, so each
 * run checks the answers for its own release.
 */
public class LuceneSupportTest extends LuceneTestCase {

  /** The build swaps the Lucene jars for its older-release runs: make sure it did. */
  public void testRunsOnTheLuceneTheBuildChose() {
    String expected = System.getProperty("tests.luceneVersion");
    assumeTrue("run by the build, which sets tests.luceneVersion", expected != null);
    assertEquals(expected, Version.LATEST.toString());
  }

  public void testIsEfficientForIsMissingBeforeLucene106() {
    boolean before106 = Version.LATEST.onOrAfter(Version.fromBits(10, 6, 0)) == false;
    assertEquals(
        LuceneSupport.MISSING_FEATURES.toString(),
        before106,
        LuceneSupport.MISSING_FEATURES.contains(LuceneSupport.IS_EFFICIENT_FOR));
    if (before106 == false) {
      assertEquals(Set.of(), LuceneSupport.MISSING_FEATURES);
    }
  }

  public void testStatsNameTheLuceneAndWhatItLacks() throws IOException {
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      HybridDirectoryStats stats = dir.stats();
      assertEquals(Version.LATEST.toString(), stats.luceneVersion());
      assertEquals(LuceneSupport.MISSING_FEATURES, stats.missingLuceneFeatures());
      assertTrue(stats.toString(), stats.toString().contains("luceneVersion=" + Version.LATEST));
      expectThrows(
          UnsupportedOperationException.class, () -> stats.missingLuceneFeatures().add("x"));
    }
  }

  public void testTheRunningLuceneIsSupported() {
    assertNull(LuceneSupport.unsupportedReason(Version.LATEST, LuceneSupport.MINIMUM));
    LuceneSupport.ensureSupported();
  }

  public void testSupportedRange() {
    Version minimum = LuceneSupport.MINIMUM;
    assertEquals(Version.fromBits(10, 3, 0), minimum);
    for (Version supported :
        new Version[] {
          minimum,
          Version.fromBits(10, 3, 2),
          Version.fromBits(10, 5, 1),
          Version.fromBits(10, 9, 0)
        }) {
      assertNull(supported.toString(), LuceneSupport.unsupportedReason(supported, minimum));
    }
    for (Version unsupported :
        new Version[] {
          Version.fromBits(10, 0, 0),
          Version.fromBits(10, 2, 2),
          Version.fromBits(9, 12, 1),
          Version.fromBits(11, 0, 0)
        }) {
      String reason = LuceneSupport.unsupportedReason(unsupported, minimum);
      assertNotNull(unsupported.toString(), reason);
      assertTrue(reason, reason.contains("Lucene on the classpath is " + unsupported));
      assertTrue(reason, reason.contains("runs on Lucene 10.3.0 and later 10.x releases"));
    }
  }

  /**
   * The slice path adds the inner file's hint with {@code withHints}, not Lucene 10.6's {@code
   * union}: it must keep the context's other hints and replace an inner-file hint it already has.
   */
  public void testInnerFileHintKeepsTheOtherHints() {
    IOContext search = IOContext.DEFAULT.withHints(FileTypeHint.DATA, DataAccessHint.RANDOM);
    IOContext slice = new InnerFileHint("_0.fdt").addTo(search);
    assertEquals(
        Set.of(FileTypeHint.DATA, DataAccessHint.RANDOM, new InnerFileHint("_0.fdt")),
        slice.hints());
    IOContext again = new InnerFileHint("_0.tim").addTo(slice);
    assertEquals("_0.tim", InnerFileHint.routedName("_0.cfs", again));
    assertEquals(3, again.hints().size());
    assertEquals(IOContext.Context.DEFAULT, again.context());
  }
}
