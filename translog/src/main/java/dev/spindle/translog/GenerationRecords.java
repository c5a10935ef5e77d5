package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The records of one generation file, read in file order and each verified, from {@link
 * TranslogInspector#readRecords}: every record up to the length a checkpoint vouches for, then, for
 * a generation that may hold durable records past its checkpoint (the one being written when the
 * translog stopped), the records that prove themselves. Reading ends at the vouched length of a
 * sealed generation, at the first record that does not prove itself past the vouched length (the
 * normal end of a translog that crashed), or at damage before the vouched length, which {@link
 * #damage()} then holds. These are the rules recovery reads by, in the same code.
 *
 * <p>Never throws for damage: {@link #next()} returns null, and {@link #damage()} and {@link
 * #endReason()} say why. Other I/O errors are thrown.
 *
 * <p>Not thread-safe: one thread iterates it. Reads only; close it to release the file.
 *
 * @lucene.experimental
 */
public final class GenerationRecords implements Closeable {

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
  GenerationRecords(
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

  /** The generation. */
  public long generation() {
    return generation;
  }

  /** The generation file. */
  public Path file() {
    return file;
  }

  /**
   * The length of the file that a checkpoint vouches for: every record before it must verify. The
   * header's length if no checkpoint vouches for the generation.
   */
  public long vouchedLength() {
    return vouchedLength;
  }

  /**
   * Returns the next record, verified, or null once reading has ended: see {@link #endReason()} and
   * {@link #damage()}. The returned operation's payload belongs to the caller.
   *
   * @throws IOException if the file cannot be read; damage is not thrown
   */
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

  /**
   * Where the records read so far end: the offset past the last record returned, where the first
   * bad one starts once reading has ended.
   */
  public long position() {
    return reader == null ? TranslogHeader.SIZE : reader.position();
  }

  /**
   * Why reading ended (the vouched end of a sealed generation, zeros, a record that does not prove
   * itself, the end of the file, or the damage), or null while records remain.
   */
  public String endReason() {
    return endReason;
  }

  /**
   * Damage: records that end before the vouched length (a {@link TranslogCorruptedException} naming
   * the file and the offset of the first bad record), a missing file, a bad header, a file of
   * another translog or generation, or a missing or bad sealed checkpoint that should vouch for the
   * file. Empty while none was found.
   */
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
