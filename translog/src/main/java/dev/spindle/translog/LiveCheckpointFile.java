package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The live checkpoint file {@code translog.ckp}: two slots, {@value #SLOT_STRIDE} bytes apart,
 * written alternately in place and forced after each write. A write that a crash tears can only
 * damage the slot being written; the other slot still holds the previous checkpoint. Recovery takes
 * the valid slot with the higher write counter. Writing in place costs one fsync of a file whose
 * size never changes.
 *
 * <p>The live checkpoint is a hint, not the proof of durability: it is written when a generation is
 * rolled, when generations are trimmed, at close and now and then in the background, never on the
 * path of an acknowledgement. Records past its offset prove themselves (see {@link RecordFormat}).
 * What it still settles: the generations the translog holds, where recovery must find every record
 * valid, and the sequence-number high-water mark.
 *
 * <p>Not thread-safe: the translog writes it under its checkpoint lock only.
 */
final class LiveCheckpointFile implements Closeable {

  /** Distance between the two slots: one page, so no sector holds parts of both. */
  static final int SLOT_STRIDE = 4096;

  /** Length of the file. */
  static final int FILE_SIZE = SLOT_STRIDE + Checkpoint.SIZE;

  /**
   * What reading the live checkpoint found.
   *
   * @param newest the valid slot with the higher write counter
   * @param newestSlot the index of that slot
   * @param previous the other slot, if it is valid too, else null
   * @param damage why a slot is not valid, one entry per damaged or missing slot
   */
  record State(
      Checkpoint.Counted newest,
      int newestSlot,
      Checkpoint.Counted previous,
      List<TranslogCorruptedException> damage) {}

  private final Path file;
  private final FileChannel channel;
  private int nextSlot;
  private long counter;
  private Checkpoint last;

  private LiveCheckpointFile(
      Path file, FileChannel channel, int nextSlot, long counter, Checkpoint last) {
    this.file = file;
    this.channel = channel;
    this.nextSlot = nextSlot;
    this.counter = counter;
    this.last = last;
  }

  /**
   * Reads both slots of the live checkpoint in {@code directory}.
   *
   * @throws TranslogFormatVersionException if a slot holds a valid checkpoint of another format
   *     version
   * @throws TranslogCorruptedException if neither slot is valid, or the slots disagree on which
   *     translog they belong to
   */
  static State read(Path directory) throws IOException {
    Path file = directory.resolve(TranslogFiles.LIVE_CHECKPOINT);
    Checkpoint.Counted[] slots = new Checkpoint.Counted[2];
    List<TranslogCorruptedException> damage = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      for (int slot = 0; slot < 2; slot++) {
        try {
          slots[slot] = readSlot(channel, file, slot);
        } catch (TranslogCorruptedException e) {
          damage.add(e);
        }
      }
    }
    if (slots[0] == null && slots[1] == null) {
      TranslogCorruptedException e =
          new TranslogCorruptedException(
              file,
              TranslogCorruptedException.NO_OFFSET,
              "neither of the two checkpoint slots is valid: "
                  + damage.get(0).getMessage()
                  + "; "
                  + damage.get(1).getMessage(),
              damage.get(0));
      e.addSuppressed(damage.get(1));
      throw e;
    }
    int newest;
    if (slots[0] == null || slots[1] == null) {
      newest = slots[0] == null ? 1 : 0;
    } else {
      if (slots[0].checkpoint().translogUuid().equals(slots[1].checkpoint().translogUuid())
          == false) {
        throw new TranslogCorruptedException(
            file,
            TranslogCorruptedException.NO_OFFSET,
            "the two checkpoint slots belong to different translogs: "
                + slots[0].checkpoint().translogUuid()
                + " and "
                + slots[1].checkpoint().translogUuid());
      }
      if (slots[0].counter() == slots[1].counter()) {
        throw new TranslogCorruptedException(
            file,
            TranslogCorruptedException.NO_OFFSET,
            "both checkpoint slots carry the write counter " + slots[0].counter());
      }
      newest = slots[0].counter() > slots[1].counter() ? 0 : 1;
    }
    return new State(slots[newest], newest, slots[1 - newest], List.copyOf(damage));
  }

  /**
   * Reads and verifies one slot of the live checkpoint.
   *
   * @param slot 0 or 1
   * @throws TranslogFormatVersionException if the slot holds a valid checkpoint of another format
   *     version
   * @throws TranslogCorruptedException if the slot is damaged, torn or cut off by the file's end
   */
  static Checkpoint.Counted readSlot(FileChannel channel, Path file, int slot) throws IOException {
    long size = channel.size();
    long offset = (long) slot * SLOT_STRIDE;
    // A short slot is read as far as the file goes, so that a slot of an older, shorter format is
    // still recognized by its version.
    byte[] bytes = new byte[Checkpoint.SIZE];
    int available = (int) Math.max(0, Math.min(Checkpoint.SIZE, size - offset));
    ChannelReads.readFully(channel, ByteBuffer.wrap(bytes, 0, available), offset, file);
    try {
      return Checkpoint.decode(bytes, file, offset);
    } catch (TranslogCorruptedException e) {
      if (available < Checkpoint.SIZE) {
        throw new TranslogCorruptedException(
            file,
            offset,
            String.format(
                Locale.ROOT,
                "checkpoint slot %d needs %d bytes here, but the file is %d bytes long",
                slot,
                Checkpoint.SIZE,
                size),
            e);
      }
      throw e;
    }
  }

  /**
   * Creates the live checkpoint of a new translog, atomically: until this returns, the directory
   * holds no {@code translog.ckp}, so a crash leaves no translog rather than half of one.
   */
  static LiveCheckpointFile create(Path directory, Checkpoint initial) throws IOException {
    // Both slots start valid, so that a fresh file reads without damage.
    ByteBuffer content = ByteBuffer.allocate(FILE_SIZE);
    content.put(initial.encode(1));
    content.position(SLOT_STRIDE);
    content.put(initial.encode(2));
    content.rewind();
    TranslogFiles.writeAtomically(directory, TranslogFiles.LIVE_CHECKPOINT, content);
    return open(directory, 0, 2, initial);
  }

  /** Opens the live checkpoint that {@link #read} found, to go on writing it. */
  static LiveCheckpointFile open(Path directory, State state) throws IOException {
    return open(
        directory, 1 - state.newestSlot(), state.newest().counter(), state.newest().checkpoint());
  }

  private static LiveCheckpointFile open(
      Path directory, int nextSlot, long counter, Checkpoint last) throws IOException {
    Path file = directory.resolve(TranslogFiles.LIVE_CHECKPOINT);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE);
    return new LiveCheckpointFile(file, channel, nextSlot, counter, last);
  }

  /** The checkpoint written last. */
  Checkpoint last() {
    return last;
  }

  /**
   * Writes {@code checkpoint} over the older slot and forces it. The caller has forced the data it
   * vouches for before.
   */
  void write(Checkpoint checkpoint) throws IOException {
    ByteBuffer encoded = checkpoint.encode(counter + 1);
    long position = (long) nextSlot * SLOT_STRIDE;
    while (encoded.hasRemaining()) {
      position += channel.write(encoded, position);
    }
    channel.force(false);
    counter++;
    nextSlot = 1 - nextSlot;
    last = checkpoint;
  }

  /**
   * Writes {@code checkpoint} into both slots, one after the other, each forced. A cleanly closed
   * translog then has two equal slots, so damage to one of them later loses nothing.
   */
  void writeBoth(Checkpoint checkpoint) throws IOException {
    write(checkpoint);
    write(checkpoint);
  }

  Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
