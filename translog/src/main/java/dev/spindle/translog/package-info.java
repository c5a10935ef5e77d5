/**
 * A standalone, crash-safe write-ahead log whose appends never wait for fsync: {@link
 * dev.spindle.translog.Translog}, opened with a {@link dev.spindle.translog.TranslogConfig}.
 * Operations are appended to generation files through a buffer, made durable by group commits (one
 * fsync for every waiting thread it covers, then a checkpoint), read back through {@link
 * dev.spindle.translog.TranslogSnapshot}s, and trimmed by generation or sequence number. The file
 * format and the order of its fsyncs are specified in the module's {@code FORMAT.md}.
 */
package dev.spindle.translog;
