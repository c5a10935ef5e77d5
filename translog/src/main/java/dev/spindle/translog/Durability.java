package dev.spindle.translog;

/** When appended operations become durable without the caller asking for it. */
public enum Durability {
  /**
   * Only when a caller asks: {@link Translog#sync()}, {@link Translog#ensureSynced} or {@link
   * Translog#syncAsync}. An operation is durable once one of them returned or completed for its
   * location. The default.
   */
  REQUEST,
  /**
   * A background thread also syncs every {@linkplain TranslogConfig#syncInterval() interval}, so an
   * operation nobody syncs is durable at most one interval (plus one fsync) after it was appended.
   * Explicit syncs still work and are still acknowledged only once durable. A crash loses at most
   * the operations of the last interval.
   */
  ASYNC
}
