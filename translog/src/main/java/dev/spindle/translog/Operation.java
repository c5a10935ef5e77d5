package dev.spindle.translog;

/**
 * One operation read back from the translog by a {@link TranslogSnapshot} (or by a {@link
 * dev.spindle.translog.inspect.GenerationRecords} of an inspector): its sequence number, its
 * payload, where it lies, and its record's checksum.
 *
 * <p>Immutable apart from the payload array, which is freshly allocated for each operation and
 * belongs to the caller.
 */
public final class Operation {

  private final long seqNo;
  private final byte[] payload;
  private final Location location;
  private final int checksum;

  Operation(long seqNo, byte[] payload, Location location, int checksum) {
    this.seqNo = seqNo;
    this.payload = payload;
    this.location = location;
    this.checksum = checksum;
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

  /**
   * The record's stored CRC32C, as verified when it was read: chained to the checksum of the record
   * before it in its file (see {@code FORMAT.md}), so two records with equal payloads differ in it.
   * For comparing copies of a translog and for tools; replay has no use for it.
   */
  public int checksum() {
    return checksum;
  }

  @Override
  public String toString() {
    return "Operation(seqNo=" + seqNo + ", " + payload.length + " bytes, " + location + ")";
  }
}
