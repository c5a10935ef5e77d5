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
   * One slot as read: valid, with its checkpoint, or not, with why: a {@link
   * TranslogCorruptedException} (damaged, torn, cut off) or a {@link
   * TranslogFormatVersionException} (a valid checkpoint of another format version).
   *
   * @param fileOffset where the slot starts in the file
   * @param checkpoint the checkpoint and its write counter, or null if the slot is not valid
   * @param damage why it is not valid, or null
   */
  record Slot(long fileOffset, Checkpoint.Counted checkpoint, IOException damage) {}

  /**
   * Reads both slots of the live checkpoint in {@code directory} and decides, by {@link #choose},
   * which one recovery goes by.
   *
   * @throws TranslogFormatVersionException if a slot holds a valid checkpoint of another format
   *     version
   * @throws TranslogCorruptedException if neither slot is valid, or the slots contradict each other
   */
  static State read(Path directory) throws IOException {
    return choose(directory.resolve(TranslogFiles.LIVE_CHECKPOINT), readSlots(directory));
  }

  /**
   * Reads both slots of the live checkpoint in {@code directory}, slot 0 first, judging neither.
   */
  static List<Slot> readSlots(Path directory) throws IOException {
    Path file = directory.resolve(TranslogFiles.LIVE_CHECKPOINT);
    List<Slot> slots = new ArrayList<>(2);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      for (int slot = 0; slot < 2; slot++) {
        long offset = (long) slot * SLOT_STRIDE;
        try {
          slots.add(new Slot(offset, readSlot(channel, file, slot), null));
        } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
          slots.add(new Slot(offset, null, e));
        }
      }
    }
    return slots;
  }

  /**
   * The rule for which slot recovery goes by, for recovery and the inspector alike: the valid slot
   * with the higher write counter. A slot of another format version is not damage that the other
   * slot can stand in for: the file was written by another format, so the translog is refused, as
   * {@code FORMAT.md} says of every file of another version, and as a slot's own damage is not.
   *
   * @param slots the two slots of {@code file}, slot 0 first
   * @throws TranslogFormatVersionException if a slot holds a valid checkpoint of another format
   *     version (the first such slot)
   * @throws TranslogCorruptedException if neither slot is valid, or both are and they belong to
   *     different translogs or carry the same write counter
   */
  static State choose(Path file, List<Slot> slots)
      throws TranslogCorruptedException, TranslogFormatVersionException {
    List<TranslogCorruptedException> damage = new ArrayList<>();
    for (Slot slot : slots) {
      if (slot.damage() instanceof TranslogFormatVersionException version) {
        throw version;
      }
      if (slot.damage() != null) {
        damage.add((TranslogCorruptedException) slot.damage());
      }
    }
    Checkpoint.Counted first = slots.get(0).checkpoint();
    Checkpoint.Counted second = slots.get(1).checkpoint();
    if (first == null && second == null) {
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
    if (first == null || second == null) {
      newest = first == null ? 1 : 0;
    } else {
      if (first.checkpoint().translogUuid().equals(second.checkpoint().translogUuid()) == false) {
        throw new TranslogCorruptedException(
            file,
            TranslogCorruptedException.NO_OFFSET,
            "the two checkpoint slots belong to different translogs: "
                + first.checkpoint().translogUuid()
                + " and "
                + second.checkpoint().translogUuid());
      }
      if (first.counter() == second.counter()) {
        throw new TranslogCorruptedException(
            file,
            TranslogCorruptedException.NO_OFFSET,
            "both checkpoint slots carry the write counter " + first.counter());
      }
      newest = first.counter() > second.counter() ? 0 : 1;
    }
    return new State(
        slots.get(newest).checkpoint(),
        newest,
        slots.get(1 - newest).checkpoint(),
        List.copyOf(damage));
  }

  /**
   * Reads and verifies one slot of the live checkpoint.
   *
   * @param slot 0 or 1
   * @throws TranslogFormatVersionException if the slot holds a valid checkpoint of another format
   *     version
   * @throws TranslogCorruptedException if the slot is damaged, torn or cut off by the file's end
   */
  private static Checkpoint.Counted readSlot(FileChannel channel, Path file, int slot)
      throws IOException {
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
