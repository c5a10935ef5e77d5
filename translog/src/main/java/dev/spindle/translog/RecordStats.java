package dev.spindle.translog;

/**
 * How many records a prefix of a generation file holds, and their smallest and largest sequence
 * numbers: what a checkpoint vouches for in its length ({@link Checkpoint#records()}), and what
 * reading that length found ({@link GenerationScan}). Recovery compares the two.
 *
 * @param operations the number of records
 * @param minSeqNo their smallest sequence number, or {@link Checkpoint#NO_SEQ_NO} if there are none
 * @param maxSeqNo their largest sequence number, or {@link Checkpoint#NO_SEQ_NO} if there are none
 */
record RecordStats(long operations, long minSeqNo, long maxSeqNo) {

  /** No records. */
  static final RecordStats NONE = new RecordStats(0, Checkpoint.NO_SEQ_NO, Checkpoint.NO_SEQ_NO);

  /** These statistics with one more record, of sequence number {@code seqNo}. */
  RecordStats plus(long seqNo) {
    return new RecordStats(
        operations + 1,
        operations == 0 ? seqNo : Math.min(minSeqNo, seqNo),
        Math.max(maxSeqNo, seqNo));
  }
}
