package dev.spindle.tests;

import dev.spindle.tests.WriteAheadLogChecker.Round;
import dev.spindle.tests.WriteAheadLogChecker.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Each of the four checks of {@link RecoveryChecks}, passing and failing, on hand-made rounds. */
public class TestRecoveryChecks extends LuceneTestCase {

  private final Map<Integer, Writer> writers = new HashMap<>();

  /** A writer that appended {@code count} records, the i-th with token {@code tokens[i]}. */
  private Writer writer(long... tokens) {
    Writer writer = new Writer(writers.size(), random().nextLong(), 64);
    writers.put(writer.id, writer);
    for (long token : tokens) {
      writer.attempted++;
      writer.tokens.add(token);
    }
    return writer;
  }

  private RecoveryChecks checks(Round round) {
    return new RecoveryChecks(writers, round, (r, message) -> new AssertionError(message));
  }

  private static List<byte[]> records(Writer writer, int... seqs) {
    List<byte[]> records = new ArrayList<>();
    for (int seq : seqs) {
      records.add(writer.record(seq));
    }
    return records;
  }

  private static void assertViolation(String expected, Runnable check) {
    AssertionError e = expectThrows(AssertionError.class, check::run);
    assertTrue(e.getMessage(), e.getMessage().contains(expected));
  }

  public void testIdentifyRefusesARecordNeverAppended() {
    Writer writer = writer(1, 2);
    Round round = new Round(1, List.of(writer));
    assertEquals(2, checks(round).identify(records(writer, 0, 1)).size());
    byte[] corrupted = writer.record(1).clone();
    corrupted[corrupted.length - 1] ^= 1;
    assertViolation(
        "never appended", () -> checks(round).identify(List.of(writer.record(0), corrupted)));
    assertViolation("never appended", () -> checks(round).identify(records(writer, 2)));
  }

  public void testDurablePrefixMustStay() {
    Writer writer = writer(1, 2, 3);
    Round round = new Round(1, List.of(writer));
    RecoveryChecks checks = checks(round);
    List<Writer.Id> durable = checks.identify(records(writer, 0, 1));
    checks.checkDurablePrefix(durable, checks.identify(records(writer, 0, 1, 2)));
    assertViolation(
        "missing", () -> checks.checkDurablePrefix(durable, checks.identify(records(writer, 0))));
    assertViolation(
        "replaced",
        () -> checks.checkDurablePrefix(durable, checks.identify(records(writer, 0, 2))));
  }

  public void testOrderOfEachWriterAndOfTokens() {
    Writer a = writer(1, 3);
    Writer b = writer(2, 4);
    Round round = new Round(1, List.of(a, b));
    RecoveryChecks checks = checks(round);
    List<byte[]> inOrder = new ArrayList<>(records(a, 0));
    inOrder.addAll(records(b, 0));
    inOrder.addAll(records(a, 1));
    RecoveryChecks.LogOrder order = checks.checkOrder(checks.identify(inOrder), 0);
    assertEquals(3, order.lastToken());
    assertEquals(Integer.valueOf(2), order.next().get(a));
    assertViolation(
        "a duplicate, a gap or a reordering",
        () -> checks.checkOrder(checks.identify(records(a, 1)), 0));
    List<byte[]> swapped = new ArrayList<>(records(b, 0));
    swapped.addAll(records(a, 0));
    assertViolation("not in log order", () -> checks.checkOrder(checks.identify(swapped), 0));
    Writer earlier = writer(0);
    assertViolation(
        "has come back", () -> checks.checkOrder(checks.identify(records(earlier, 0)), 0));
  }

  public void testNothingAcknowledgedOrBelowTheLastTokenIsLost() {
    Writer a = writer(1, 3);
    Writer b = writer(2, WriteAheadLogChecker.UNKNOWN);
    Round round = new Round(1, List.of(a, b));
    RecoveryChecks checks = checks(round);
    round.acked.set(1);
    checks.checkNothingLost(checks.checkOrder(checks.identify(records(a, 0)), 0));
    round.acked.set(2);
    assertViolation(
        "but is lost",
        () -> checks.checkNothingLost(checks.checkOrder(checks.identify(records(a, 0)), 0)));
    round.acked.set(WriteAheadLogChecker.UNKNOWN);
    assertViolation(
        "a hole",
        () -> checks.checkNothingLost(checks.checkOrder(checks.identify(records(a, 0, 1)), 0)));
  }
}
