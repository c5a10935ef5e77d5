package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * The translog's {@link dev.spindle.translog.inspect.GenerationInfo}: one generation's files, read
 * by {@link GenerationFiles}, and its records, read by recovery's own reading ({@link
 * GenerationScan#of}) with the bound recovery reads it by ({@link GenerationBound}). Adds nothing
 * but the report. Immutable.
 */
final class InspectedGeneration implements dev.spindle.translog.inspect.GenerationInfo {

  private final GenerationFiles sources;
  private final GenerationScan scan;
  private final IOException damage;

  private InspectedGeneration(GenerationFiles sources, GenerationScan scan, IOException damage) {
    this.sources = sources;
    this.scan = scan;
    this.damage = damage;
  }

  /** Reads the records of the generation {@code sources} describe, and describes it. */
  static InspectedGeneration read(GenerationFiles sources) throws IOException {
    try (BoundedRecords records = sources.openRecords()) {
      return new InspectedGeneration(
          sources, GenerationScan.of(records), records.damage().orElse(null));
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
    return scan.read().operations();
  }

  @Override
  public long minSeqNo() {
    return scan.read().minSeqNo();
  }

  @Override
  public long maxSeqNo() {
    return scan.read().maxSeqNo();
  }

  @Override
  public long recordsEnd() {
    return scan.trustedEnd();
  }

  @Override
  public long recordsPastVouched() {
    return sources.vouchedByCheckpoint() ? scan.proven() : 0;
  }

  @Override
  public String endReason() {
    return scan.stopReason();
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
        + records()
        + " records ending at "
        + recordsEnd()
        + (damage == null ? "" : ", damage: " + damage.getMessage())
        + ")";
  }
}
