package dev.spindle.translog;

/**
 * Where an appended operation lies in the translog: its generation, the byte offset of its record
 * in that generation's file, and the record's size. Locations order as the log does, so the greater
 * of two locations was appended later. Pass one to {@link Translog#ensureSynced} or {@link
 * Translog#syncAsync} to wait until the operation, and everything appended before it, is durable.
 *
 * @param generation the generation whose file holds the record
 * @param offset the byte offset of the record in that file
 * @param size the size of the record in bytes, framing included
 * @param seqNo the operation's sequence number, assigned by the translog or given by the caller
 */
public record Location(long generation, long offset, int size, long seqNo)
    implements Comparable<Location> {

  /** Validates the components. */
  public Location {
    if (generation < 1 || offset < 0 || size < 0) {
      throw new IllegalArgumentException(
          "invalid location: generation=" + generation + ", offset=" + offset + ", size=" + size);
    }
  }

  /** The offset just past the record: the position up to which its generation must be durable. */
  public long endOffset() {
    return offset + size;
  }

  @Override
  public int compareTo(Location other) {
    int byGeneration = Long.compare(generation, other.generation);
    return byGeneration != 0 ? byGeneration : Long.compare(offset, other.offset);
  }
}
