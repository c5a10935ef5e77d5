package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * The translog's {@link dev.spindle.translog.inspect.GenerationInfo}: one generation's files, read
 * by {@link GenerationFiles}, and what reading its records gave. Immutable.
 */
final class InspectedGeneration implements dev.spindle.translog.inspect.GenerationInfo {

  private final GenerationFiles sources;
  private final long records;
  private final long minSeqNo;
  private final long maxSeqNo;
  private final long recordsEnd;
  private final long recordsPastVouched;
  private final String endReason;
  private final IOException damage;

  private InspectedGeneration(
      GenerationFiles sources,
      long records,
      long minSeqNo,
      long maxSeqNo,
      long recordsEnd,
      long recordsPastVouched,
      String endReason,
      IOException damage) {
    this.sources = sources;
    this.records = records;
    this.minSeqNo = minSeqNo;
    this.maxSeqNo = maxSeqNo;
    this.recordsEnd = recordsEnd;
    this.recordsPastVouched = recordsPastVouched;
    this.endReason = endReason;
    this.damage = damage;
  }

  /** Reads the records of the generation {@code sources} describe, and describes it. */
  static InspectedGeneration read(GenerationFiles sources) throws IOException {
    try (BoundedRecords records = sources.openRecords()) {
      long count = 0;
      long pastVouched = 0;
      long minSeqNo = Checkpoint.NO_SEQ_NO;
      long maxSeqNo = Checkpoint.NO_SEQ_NO;
      for (Operation operation = records.next(); operation != null; operation = records.next()) {
        count++;
        minSeqNo = minSeqNo < 0 ? operation.seqNo() : Math.min(minSeqNo, operation.seqNo());
        maxSeqNo = Math.max(maxSeqNo, operation.seqNo());
        if (operation.location().offset() >= records.vouchedLength()) {
          pastVouched++;
        }
      }
      return new InspectedGeneration(
          sources,
          count,
          minSeqNo,
          maxSeqNo,
          records.position(),
          sources.vouchedByCheckpoint() ? pastVouched : 0,
          records.endReason(),
          records.damage().orElse(null));
    }
  }

  @Override
  public long generation() {
    return sources.generation();
  }

  @Override
  public Role role() {
    return sources.role();
  }

  @Override
  public Path file() {
    return sources.file();
  }

  @Override
  public long fileSize() {
    return sources.fileSize();
  }

  @Override
  public Optional<UUID> headerUuid() {
    return Optional.ofNullable(sources.headerUuid());
  }

  @Override
  public Optional<dev.spindle.translog.inspect.CheckpointInfo> sealedCheckpoint() {
    return Optional.ofNullable(sources.sealed());
  }

  @Override
  public long vouchedLength() {
    return sources.vouchedByCheckpoint() ? sources.vouchedLength() : -1;
  }

  @Override
  public long records() {
    return records;
  }

  @Override
  public long minSeqNo() {
    return minSeqNo;
  }

  @Override
  public long maxSeqNo() {
    return maxSeqNo;
  }

  @Override
  public long recordsEnd() {
    return recordsEnd;
  }

  @Override
  public long recordsPastVouched() {
    return recordsPastVouched;
  }

  @Override
  public String endReason() {
    return endReason;
  }

  @Override
  public Optional<IOException> damage() {
    return Optional.ofNullable(damage);
  }

  @Override
  public String toString() {
    return "InspectedGeneration(generation "
        + generation()
        + ", "
        + role()
        + ", "
        + records
        + " records ending at "
        + recordsEnd
        + (damage == null ? "" : ", damage: " + damage.getMessage())
        + ")";
  }
}
