package dev.spindle.translog;

/**
 * One operation read back from the translog by a {@link TranslogSnapshot}: its sequence number, its
 * payload and where it lies.
 *
 * <p>Immutable apart from the payload array, which is freshly allocated for each operation and
 * belongs to the caller.
 */
public final class Operation {

  private final long seqNo;
  private final byte[] payload;
  private final Location location;

  Operation(long seqNo, byte[] payload, Location location) {
    this.seqNo = seqNo;
    this.payload = payload;
    this.location = location;
  }

  /** The sequence number the operation was appended with. */
  public long seqNo() {
    return seqNo;
  }

  /** The payload, exactly as appended. The array is the caller's; the translog keeps no copy. */
  public byte[] payload() {
    return payload;
  }

  /** Where the operation lies in the translog. */
  public Location location() {
    return location;
  }

  @Override
  public String toString() {
    return "Operation(seqNo=" + seqNo + ", " + payload.length + " bytes, " + location + ")";
  }
}
