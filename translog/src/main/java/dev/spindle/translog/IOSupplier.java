package dev.spindle.translog;

import java.io.IOException;

/**
 * I/O that returns a result and may fail: a {@link java.util.function.Supplier} that may throw
 * {@link IOException}, which the JDK does not have. A round of {@link GroupCommit} is one, and so
 * is what {@link Uninterruptible#get} runs.
 *
 * @param <T> the result
 */
@FunctionalInterface
interface IOSupplier<T> {
  T get() throws IOException;
}
