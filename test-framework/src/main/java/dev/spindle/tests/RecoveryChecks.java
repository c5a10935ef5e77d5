package dev.spindle.tests;

import dev.spindle.tests.WriteAheadLogChecker.Round;
import dev.spindle.tests.WriteAheadLogChecker.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The four checks {@link WriteAheadLogChecker} makes of each recovery, one method each, in the
 * order it makes them: every record recovered was appended, byte for byte ({@link #identify}); the
 * records recovered before come first, unchanged ({@link #checkDurablePrefix}); each writer's new
 * records appear once, in order, and records with tokens in token order ({@link #checkOrder}); and
 * no record an acknowledged sync covered, nor one below the highest token recovered, is missing
 * ({@link #checkNothingLost}). Each throws the checker's {@link AssertionError} on its first
 * violation.
 *
 * <p>Not thread-safe: made for one recovery of one round, on the test thread, after the round's
 * writers were joined.
 */
final class RecoveryChecks {

  /**
   * How far the new records go in the log's order.
   *
   * @param next per writer of the round, how many of its records were recovered
   * @param lastToken the highest token among them, or {@link WriteAheadLogChecker#UNKNOWN}
   * @param lastTokenId the record with that token, or null if no recovered record has one
   */
  record LogOrder(Map<Writer, Integer> next, long lastToken, Writer.Id lastTokenId) {}

  private final Map<Integer, Writer> writers;
  private final Round round;
  private final BiFunction<Round, String, AssertionError> violation;

  /**
   * @param writers every writer of the test so far, by id
   * @param round the round whose recovery is checked
   * @param violation makes the error for a violation, with the round's report
   */
  RecoveryChecks(
      Map<Integer, Writer> writers,
      Round round,
      BiFunction<Round, String, AssertionError> violation) {
    this.writers = writers;
    this.round = round;
    this.violation = violation;
  }

  /** Names each recovered record by its writer and sequence; fails on one never appended. */
  List<Writer.Id> identify(List<byte[]> recovered) {
    List<Writer.Id> ids = new ArrayList<>();
    for (int i = 0; i < recovered.size(); i++) {
      byte[] record = recovered.get(i);
      Writer writer = record == null ? null : writers.get(SuiteRecords.writer(record));
      int seq = writer == null ? -1 : SuiteRecords.seq(record);
      if (writer == null
          || seq < 0
          || seq >= writer.attempted
          || writer.matches(record, seq) == false) {
        throw violation.apply(
            round,
            "recovered record #"
                + i
                + " was never appended (corrupted?): "
                + (record == null ? "null" : SuiteRecords.describe(record)));
      }
      ids.add(new Writer.Id(writer, seq));
    }
    return ids;
  }

  /** The records recovered before, durable since, must start the log, in order and unchanged. */
  void checkDurablePrefix(List<Writer.Id> durable, List<Writer.Id> ids) {
    for (int i = 0; i < durable.size(); i++) {
      if (i >= ids.size() || ids.get(i).equals(durable.get(i)) == false) {
        throw violation.apply(
            round,
            recordAt(durable.get(i), i)
                + " was recovered or acknowledged before and is now "
                + (i >= ids.size()
                    ? "missing (" + ids.size() + " records recovered)"
                    : "replaced by " + ids.get(i)));
      }
    }
  }

  /**
   * The records after the durable prefix, from position {@code from}: each of this round's writers
   * once, in its own order without gaps, and records with tokens in token order.
   */
  LogOrder checkOrder(List<Writer.Id> ids, int from) {
    Map<Writer, Integer> next = new HashMap<>();
    long lastToken = WriteAheadLogChecker.UNKNOWN;
    Writer.Id lastTokenId = null;
    for (int i = from; i < ids.size(); i++) {
      Writer.Id id = ids.get(i);
      if (round.writers.contains(id.writer()) == false) {
        throw violation.apply(
            round,
            recordAt(id, i)
                + " was appended before the last recovery, which"
                + " did not return it, and has come back");
      }
      int expected = next.getOrDefault(id.writer(), 0);
      if (id.seq() != expected) {
        throw violation.apply(
            round,
            recordAt(id, i)
                + " but the writer's next record should be #"
                + expected
                + " (a duplicate, a gap or a reordering)");
      }
      next.put(id.writer(), expected + 1);
      long token = id.writer().token(id.seq());
      if (token != WriteAheadLogChecker.UNKNOWN) {
        if (lastTokenId != null && token <= lastToken) {
          throw violation.apply(
              round,
              "record "
                  + id
                  + " (token "
                  + token
                  + ") at position "
                  + i
                  + " comes after "
                  + lastTokenId
                  + " (token "
                  + lastToken
                  + "): not in log order");
        }
        lastToken = token;
        lastTokenId = id;
      }
    }
    return new LogOrder(next, lastToken, lastTokenId);
  }

  /**
   * No record of this round that was not recovered may be one that a sync acknowledged
   * (durability), nor one whose token lies below the highest token recovered (a hole).
   */
  void checkNothingLost(LogOrder order) {
    long acked = round.acked.get();
    for (Writer writer : round.writers) {
      int recoveredCount = order.next().getOrDefault(writer, 0);
      for (int seq = recoveredCount; seq < writer.tokens.size(); seq++) {
        long token = writer.tokens.get(seq);
        if (token == WriteAheadLogChecker.UNKNOWN) {
          continue;
        }
        if (token <= acked) {
          throw violation.apply(
              round,
              "record "
                  + new Writer.Id(writer, seq)
                  + " (token "
                  + token
                  + ") was acknowledged"
                  + " durable by a sync up to token "
                  + acked
                  + " but is lost");
        }
        if (order.lastTokenId() != null && token < order.lastToken()) {
          throw violation.apply(
              round,
              "record "
                  + new Writer.Id(writer, seq)
                  + " (token "
                  + token
                  + ") is missing while "
                  + order.lastTokenId()
                  + " (token "
                  + order.lastToken()
                  + ") after it was recovered: a hole");
        }
      }
    }
  }

  private static String recordAt(Writer.Id id, int position) {
    return "record " + id + " at position " + position;
  }
}
