package dev.spindle.search;

import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Version;

/**
 * The Lucene release check. The build runs this suite on Lucene 10.5.0, 10.5.1 and the release it
 * compiles against.
 */
public class LuceneSupportTest extends LuceneTestCase {

  /** The build swaps the Lucene jars for its older-release runs: make sure it did. */
  public void testRunsOnTheLuceneTheBuildChose() {
    String expected = System.getProperty("tests.luceneVersion");
    assumeTrue("run by the build, which sets tests.luceneVersion", expected != null);
    assertEquals(expected, Version.LATEST.toString());
  }

  public void testTheRunningLuceneIsSupported() {
    assertNull(LuceneSupport.unsupportedReason(Version.LATEST, LuceneSupport.MINIMUM));
    LuceneSupport.ensureSupported();
    assertNotNull(
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
            MatchAllDocsQuery.INSTANCE, new float[] {1f}, "v", 1));
  }

  public void testSupportedRange() {
    Version minimum = LuceneSupport.MINIMUM;
    assertEquals(Version.fromBits(10, 5, 0), minimum);
    for (Version supported :
        new Version[] {minimum, Version.fromBits(10, 5, 1), Version.fromBits(10, 9, 0)}) {
      assertNull(supported.toString(), LuceneSupport.unsupportedReason(supported, minimum));
    }
    for (Version unsupported :
        new Version[] {
          Version.fromBits(10, 4, 0), Version.fromBits(10, 0, 0), Version.fromBits(11, 0, 0)
        }) {
      String reason = LuceneSupport.unsupportedReason(unsupported, minimum);
      assertNotNull(unsupported.toString(), reason);
      assertTrue(reason, reason.contains("Lucene on the classpath is " + unsupported));
      assertTrue(reason, reason.contains("runs on Lucene 10.5.0 and later 10.x releases"));
    }
  }
}
