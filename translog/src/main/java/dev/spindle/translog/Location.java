package dev.spindle.translog;

/**
 * Where an appended operation lies in the translog: its generation, the byte offset of its record
 * in that generation's file, and the record's size. Locations order as the log does, so the greater
 * of two locations was appended later. Pass one to {@link Translog#ensureSynced} or {@link
 * Translog#syncAsync} to wait until the operation, and everything appended before it, is durable.
 *
 * <p>Only the translog makes locations: {@link Translog#append} returns them and snapshots read
 * them back with each {@link Operation}, so a location always names a record that was appended.
 *
 * <p><b>Identity.</b> Two locations are equal when all four parts are. {@link #compareTo} orders by
 * generation, then offset, and breaks ties by size and sequence number, so that it is consistent
 * with {@link #equals}; locations the translog returns never tie on generation and offset, as one
 * record starts at each offset of a generation file.
 *
 * <p>Immutable and thread-safe.
 */
public final class Location implements Comparable<Location> {

  private final long generation;
  private final long offset;
  private final int size;
  private final long seqNo;

  /**
   * @param generation the generation whose file holds the record
   * @param offset the byte offset of the record in that file
   * @param size the size of the record in bytes, framing included
   * @param seqNo the operation's sequence number, assigned by the translog or given by the caller
   */
  Location(long generation, long offset, int size, long seqNo) {
    if (generation < 1 || offset < 0 || size < 0) {
      throw new IllegalArgumentException(
          "invalid location: generation=" + generation + ", offset=" + offset + ", size=" + size);
    }
    this.generation = generation;
    this.offset = offset;
    this.size = size;
    this.seqNo = seqNo;
  }

  /** The generation whose file holds the record. */
  public long generation() {
    return generation;
  }

  /** The byte offset of the record in its generation's file. */
  public long offset() {
    return offset;
  }

  /** The size of the record in bytes, framing included. */
  public int size() {
    return size;
  }

  /** The operation's sequence number, assigned by the translog or given by the caller. */
  public long seqNo() {
    return seqNo;
  }

  /** The offset just past the record: the position up to which its generation must be durable. */
  public long endOffset() {
    return offset + size;
  }

  /** Orders by generation, then by offset (the order of the log), then by size and seqNo. */
  @Override
  public int compareTo(Location other) {
    int order = Long.compare(generation, other.generation);
    if (order == 0) {
      order = Long.compare(offset, other.offset);
    }
    if (order == 0) {
      order = Integer.compare(size, other.size);
    }
    return order != 0 ? order : Long.compare(seqNo, other.seqNo);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Location location
        && generation == location.generation
        && offset == location.offset
        && size == location.size
        && seqNo == location.seqNo;
  }

  @Override
  public int hashCode() {
    int hash = Long.hashCode(generation);
    hash = 31 * hash + Long.hashCode(offset);
    hash = 31 * hash + size;
    return 31 * hash + Long.hashCode(seqNo);
  }

  @Override
  public String toString() {
    return "Location(generation "
        + generation
        + ", offset "
        + offset
        + ", "
        + size
        + " bytes, seqNo "
        + seqNo
        + ")";
  }
}
