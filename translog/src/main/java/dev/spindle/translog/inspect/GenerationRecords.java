package dev.spindle.translog.inspect;

import dev.spindle.translog.Operation;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The records of one generation file, read in file order and each verified, from {@link
 * TranslogInspector#readRecords}: every record up to the length a checkpoint vouches for, then, for
 * a generation that may hold durable records past its checkpoint (the one being written when the
 * translog stopped), the records that prove themselves. Reading ends at the vouched length of a
 * sealed generation, at the first record that does not prove itself past the vouched length (the
 * normal end of a translog that crashed), or at damage before the vouched length, which {@link
 * #damage()} then holds. These are the rules recovery reads by, in the same code: recovery reads
 * every generation through the same implementation.
 *
 * <p>Never throws for damage: {@link #next()} returns null, and {@link #damage()} and {@link
 * #endReason()} say why. Other I/O errors are thrown.
 *
 * <p>Not thread-safe: one thread iterates it. Reads only; close it to release the file. Only the
 * translog implements it, and methods may be added.
 *
 * @lucene.experimental
 */
public interface GenerationRecords extends Closeable {

  /** The generation. */
  long generation();

  /** The generation file. */
  Path file();

  /**
   * The length of the file that a checkpoint vouches for: every record before it must verify. The
   * header's length if no checkpoint vouches for the generation.
   */
  long vouchedLength();

  /**
   * Returns the next record, verified, or null once reading has ended: see {@link #endReason()} and
   * {@link #damage()}. The returned operation's payload belongs to the caller.
   *
   * @throws IOException if the file cannot be read; damage is not thrown
   */
  Operation next() throws IOException;

  /**
   * Where the records read so far end: the offset past the last record returned, where the first
   * bad one starts once reading has ended.
   */
  long position();

  /**
   * Why reading ended (the vouched end of a sealed generation, zeros, a record that does not prove
   * itself, the end of the file, or the damage), or null while records remain.
   */
  String endReason();

  /**
   * Damage: records that end before the vouched length (a {@link
   * dev.spindle.translog.TranslogCorruptedException} naming the file and the offset of the first
   * bad record), a missing file, a bad header, a file of another translog or generation, or a
   * missing or bad sealed checkpoint that should vouch for the file. Empty while none was found.
   */
  Optional<IOException> damage();
}
