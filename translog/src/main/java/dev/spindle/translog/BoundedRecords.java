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

  private final long generation;
  private final Path file;
  private final long vouchedLength;
  private final boolean pastVouched;
  private final FileChannel channel;
  private final RecordReader reader;
  private final long fileSize;
  private IOException damage;
  private String endReason;

  /**
   * @param file the generation file
   * @param channel the file, open for reading, its header read and checked; null if the records
   *     cannot be read at all (a missing file, a bad header), and then {@code damage} says why, or
   *     the file is missing where none need be
   * @param vouchedLength the length up to which every record must verify
   * @param pastVouched whether to go on past it while records prove themselves
   * @param damage damage found before reading (a missing or bad checkpoint, a missing file, a bad
   *     header), or null
   */
  BoundedRecords(
      long generation,
      Path file,
      FileChannel channel,
      TranslogHeader header,
      long vouchedLength,
      boolean pastVouched,
      IOException damage)
      throws IOException {
    this.generation = generation;
    this.file = file;
    this.channel = channel;
    this.vouchedLength = vouchedLength;
    this.pastVouched = pastVouched;
    this.damage = damage;
    if (channel == null) {
      this.reader = null;
      this.fileSize = -1;
      this.endReason = damage != null ? damage.getMessage() : "the file is missing";
    } else {
      this.reader = new RecordReader(channel, file, generation, header.chainSeed(), vouchedLength);
      this.fileSize = channel.size();
    }
  }

  @Override
  public long generation() {
    return generation;
  }

  @Override
  public Path file() {
    return file;
  }

  @Override
  public long vouchedLength() {
    return vouchedLength;
  }

  @Override
  public Operation next() throws IOException {
    if (endReason != null) {
      return null;
    }
    if (reader.position() < vouchedLength) {
      try {
        Operation operation = reader.next();
        if (operation != null) {
          return operation;
        }
      } catch (TranslogCorruptedException e) {
        damage = truncationOrDamage(e);
        endReason = damage.getMessage();
        return null;
      }
    }
    if (pastVouched == false) {
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
    return Optional.ofNullable(damage);
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
    }
  }
}
