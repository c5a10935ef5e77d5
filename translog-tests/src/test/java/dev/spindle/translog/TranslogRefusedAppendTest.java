package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * An append that is refused before anything is written changes nothing: the translog stays open,
 * accepts the next valid append, and every operation appended before the refusal, durable or not,
 * can still be made durable and is recovered.
 */
public class TranslogRefusedAppendTest extends LuceneTestCase {

  /** One way to have an append refused, and the exception it must be refused with. */
  private interface Refusal {
    void attempt(Translog translog) throws IOException;
  }

  public void testExhaustedSequenceNumbersAreARefusal() throws IOException {
    Path dir = createTempDir();
    List<Location> appended = new ArrayList<>();
    try (Translog translog = Translog.open(config(dir))) {
      appendSome(translog, appended);
      appended.add(translog.append(Long.MAX_VALUE - 1, new byte[] {1}));
      assertEquals(Long.MAX_VALUE, translog.nextSeqNo());
      IllegalStateException e =
          expectThrows(IllegalStateException.class, () -> translog.append(new byte[] {2}));
      assertTrue(e.getMessage(), e.getMessage().contains("sequence numbers are exhausted"));
      assertTrue(e.getMessage(), e.getMessage().contains(dir.toString()));
      assertNull("a refusal is not a tragedy", translog.tragedy());
      // Explicit sequence numbers are still accepted, and everything appended becomes durable.
      appended.add(translog.append(3, new byte[] {3}));
      translog.sync();
      expectThrows(IllegalStateException.class, () -> translog.append(new byte[] {4}));
    }
    assertRecovered(dir, appended);
  }

  public void testEachArgumentCheckIsARefusal() throws IOException {
    List<Refusal> refusals =
        List.of(
            translog -> expectThrows(NullPointerException.class, () -> translog.append(null)),
            translog -> expectThrows(NullPointerException.class, () -> translog.append(5, null)),
            translog ->
                expectThrows(
                    IllegalArgumentException.class, () -> translog.append(-1, new byte[1])),
            translog ->
                expectThrows(
                    IllegalArgumentException.class,
                    () -> translog.append(Long.MIN_VALUE, new byte[1])),
            translog ->
                expectThrows(
                    IllegalArgumentException.class,
                    () -> translog.append(Long.MAX_VALUE, new byte[1])));
    for (Refusal refusal : refusals) {
      Path dir = createTempDir();
      List<Location> appended = new ArrayList<>();
      try (Translog translog = Translog.open(config(dir))) {
        appendSome(translog, appended);
        refusal.attempt(translog);
        assertNull("a refusal is not a tragedy", translog.tragedy());
        appended.add(translog.append(new byte[] {9}));
        translog.ensureSynced(appended.get(appended.size() - 1));
      }
      assertRecovered(dir, appended);
    }
  }

  /** A repeated or lower explicit sequence number is accepted, as documented. */
  public void testRepeatedAndLowerExplicitSequenceNumbersAreAccepted() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(config(dir))) {
      translog.append(10, new byte[] {1});
      translog.append(10, new byte[] {2});
      translog.append(3, new byte[] {3});
      assertEquals(11, translog.append(new byte[] {4}).seqNo());
      translog.sync();
    }
    try (Translog reopened = Translog.open(config(dir))) {
      List<Operation> operations = TranslogTest.readAll(reopened, 0);
      assertEquals(4, operations.size());
      assertEquals(List.of(10L, 10L, 3L, 11L), operations.stream().map(Operation::seqNo).toList());
    }
  }

  /** An append after close is refused and the closed translog's operations are all there. */
  public void testAppendAfterCloseIsARefusal() throws IOException {
    Path dir = createTempDir();
    List<Location> appended = new ArrayList<>();
    Translog translog = Translog.open(config(dir));
    appendSome(translog, appended);
    translog.close();
    expectThrows(TranslogClosedException.class, () -> translog.append(new byte[] {1}));
    expectThrows(TranslogClosedException.class, () -> translog.append(1, new byte[] {1}));
    assertNull(translog.tragedy());
    assertRecovered(dir, appended);
  }

  /**
   * A payload over 1 GiB is refused. The array takes more heap than the test JVM has, so a JVM of
   * its own makes the attempt; it prints the operations it recovered after reopening.
   */
  public void testAnOversizedPayloadIsARefusal() throws Exception {
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    String line = ChildJvm.run(OversizedAppend.class, "1400m", dir.toString());
    assertEquals("refused, then recovered 3 of 3", line);
  }

  /** Appends two operations, is refused a payload of 1 GiB + 1, appends a third and syncs. */
  public static final class OversizedAppend {
    private OversizedAppend() {}

    public static void main(String[] args) throws IOException {
      Path dir = Path.of(args[0]);
      TranslogConfig.Builder config = TranslogConfig.builder(dir);
      String outcome = "accepted";
      try (Translog translog = Translog.open(config.build())) {
        translog.append(new byte[] {1});
        translog.append(new byte[] {2});
        byte[] oversized = new byte[(1 << 30) + 1];
        try {
          translog.append(oversized);
        } catch (IllegalArgumentException e) {
          outcome = translog.tragedy() == null ? "refused" : "failed";
        }
        oversized = null;
        translog.ensureSynced(translog.append(new byte[] {3}));
      }
      try (Translog translog = Translog.open(config.build())) {
        System.out.println(
            outcome + ", then recovered " + translog.recoveryReport().operations() + " of 3");
      }
    }
  }

  private TranslogConfig config(Path dir) {
    return TranslogTest.noAutoRoll(dir).build();
  }

  /** Appends a few operations, none of them synced. */
  private void appendSome(Translog translog, List<Location> appended) throws IOException {
    int count = 1 + random().nextInt(20);
    for (int i = 0; i < count; i++) {
      appended.add(translog.append(new byte[] {(byte) i, 42}));
    }
  }

  private void assertRecovered(Path dir, List<Location> appended) throws IOException {
    try (Translog reopened = Translog.open(config(dir))) {
      List<Operation> operations = TranslogTest.readAll(reopened, 0);
      assertEquals("operations recovered", appended.size(), operations.size());
      for (int i = 0; i < appended.size(); i++) {
        assertEquals(appended.get(i).seqNo(), operations.get(i).seqNo());
        assertEquals(appended.get(i), operations.get(i).location());
      }
      assertNull(reopened.tragedy());
    }
  }
}
