package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the records of one generation file by its bound: every record up to the vouched length must
 * verify, and past it, if the bound says so, the records that prove themselves. Recovery ({@link
 * GenerationScan}) reads every generation it keeps through it, and it is the translog's {@link
 * dev.spindle.translog.inspect.GenerationRecords}, so an inspector reads by the same code.
 *
 * <p>Never throws for damage. Not thread-safe: one thread iterates it.
 */
final class BoundedRecords implements dev.spindle.translog.inspect.GenerationRecords {

  private final GenerationBound bound;
  private final Path file;
  private final FileChannel channel;
  private final RecordReader reader;
  private final long fileSize;

  /** Damage found before reading, in the generation's other files or in its header; or null. */
  private final IOException filesDamage;

  /** The first record before the vouched length that does not verify, or null. */
  private TranslogCorruptedException recordDamage;

  private String endReason;

  /**
   * @param bound what vouches for the generation: its vouched length and whether records past it
   *     count
   * @param file the generation file
   * @param channel the file, open for reading, its header read and checked; null if the records
   *     cannot be read at all (a missing file, a bad header), and then {@code damage} says why, or
   *     the file is missing where none need be
   * @param damage damage found before reading (a missing or bad checkpoint, a missing file, a bad
   *     header), or null
   */
  BoundedRecords(
      GenerationBound bound,
      Path file,
      FileChannel channel,
      TranslogHeader header,
      IOException damage)
      throws IOException {
    this.bound = bound;
    this.file = file;
    this.channel = channel;
    this.filesDamage = damage;
    if (channel == null) {
      this.reader = null;
      this.fileSize = -1;
      this.endReason = damage != null ? damage.getMessage() : "the file is missing";
    } else {
      this.reader =
          new RecordReader(
              channel, file, bound.generation(), header.chainSeed(), bound.vouchedLength());
      this.fileSize = channel.size();
    }
  }

  @Override
  public long generation() {
    return bound.generation();
  }

  @Override
  public Path file() {
    return file;
  }

  @Override
  public long vouchedLength() {
    return bound.vouchedLength();
  }

  @Override
  public Operation next() throws IOException {
    if (endReason != null) {
      return null;
    }
    if (reader.position() < bound.vouchedLength()) {
      try {
        Operation operation = reader.next();
        if (operation != null) {
          return operation;
        }
      } catch (TranslogCorruptedException e) {
        recordDamage = truncationOrDamage(e);
        endReason = recordDamage.getMessage();
        return null;
      }
    }
    if (bound.readsPast() == false) {
      endReason = "the length its sealed checkpoint vouches for";
      return null;
    }
    Operation operation = reader.nextProven();
    if (operation == null) {
      endReason = reader.stopReason();
    }
    return operation;
  }

  /** A short file is reported as such: clearer than the record it cuts off. */
  private TranslogCorruptedException truncationOrDamage(TranslogCorruptedException e) {
    long vouchedLength = bound.vouchedLength();
    if (fileSize >= vouchedLength) {
      return e;
    }
    return new TranslogCorruptedException(
        file,
        reader.position(),
        String.format(
            Locale.ROOT,
            "the file is %d bytes long, but its checkpoint vouches for %d bytes (truncated)",
            fileSize,
            vouchedLength),
        e);
  }

  @Override
  public long position() {
    return reader == null ? TranslogHeader.SIZE : reader.position();
  }

  @Override
  public String endReason() {
    return endReason;
  }

  @Override
  public Optional<IOException> damage() {
    return Optional.ofNullable(recordDamage != null ? recordDamage : filesDamage);
  }

  /**
   * Damage among the records: the first before the vouched length that does not verify, or null.
   */
  TranslogCorruptedException recordDamage() {
    return recordDamage;
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
    }
  }
}
