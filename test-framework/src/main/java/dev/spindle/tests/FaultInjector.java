package dev.spindle.tests;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Decides which operations of a {@link PowerLossFileSystem} fail, and how. Install one with {@link
 * PowerLossFileSystem#injectFaults}; it is asked once before every operation it can fail (see
 * {@link FileOperation}), from the thread doing the operation, possibly from several threads at
 * once, so implementations must be thread-safe.
 *
 * <pre>{@code
 * fs.injectFaults(FaultInjector.nth(FileOperation.FORCE, 3, InjectedFault.IO_ERROR));
 * fs.injectFaults(FaultInjector.random(new Random(random().nextLong()), 0.01));
 * fs.injectFaults(
 *     (operation, path) ->
 *         operation == FileOperation.RENAME && path.getFileName().toString().endsWith(".ckp")
 *             ? InjectedFault.IO_ERROR
 *             : null);
 * }</pre>
 */
@FunctionalInterface
public interface FaultInjector {

  /**
   * Returns the fault to inject into this operation, or null to let it run.
   *
   * @param operation what is about to happen
   * @param path the file or directory it happens to (for a rename, the source)
   * @return the fault, or null
   */
  InjectedFault next(FileOperation operation, Path path);

  /**
   * Returns an injector that fails nothing.
   *
   * @return the injector
   */
  static FaultInjector none() {
    return (operation, path) -> null;
  }

  /**
   * Returns an injector that fails the {@code n}th operation of one kind (counting from 1, from
   * when it is installed) and nothing else.
   *
   * @param operation the kind of operation to count
   * @param n which one to fail, 1 for the next one
   * @param fault the fault to inject
   * @return the injector
   */
  static FaultInjector nth(FileOperation operation, long n, InjectedFault fault) {
    Objects.requireNonNull(operation);
    Objects.requireNonNull(fault);
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1, got " + n);
    }
    AtomicLong seen = new AtomicLong();
    return (op, path) -> op == operation && seen.incrementAndGet() == n ? fault : null;
  }

  /**
   * Returns an injector that fails the {@code n}th operation of one kind on the files {@code files}
   * accepts (counting from 1, from when it is installed, only those operations) and nothing else.
   *
   * @param operation the kind of operation to count
   * @param n which one to fail, 1 for the next one
   * @param fault the fault to inject
   * @param files which files count, for example {@code path ->
   *     path.getFileName().toString().endsWith(".log")}
   * @return the injector
   */
  static FaultInjector nth(
      FileOperation operation, long n, InjectedFault fault, Predicate<Path> files) {
    Objects.requireNonNull(files);
    FaultInjector nth = nth(operation, n, fault);
    return (op, path) -> op == operation && files.test(path) ? nth.next(op, path) : null;
  }

  /**
   * Returns an injector that fails each operation with the given probability, with a fault drawn
   * from those that mean something for it ({@link InjectedFault#SHORT_WRITE} and {@link
   * InjectedFault#PARTIAL_WRITE} only for writes; never {@link InjectedFault#UNBACKED_MAPPING},
   * whose error may surface anywhere in the storing thread).
   *
   * @param random the source of the decisions; its sequence depends on the order of operations, so
   *     only single-threaded use reproduces exactly
   * @param probability chance that one operation fails, in [0, 1]
   * @return the injector
   */
  static FaultInjector random(Random random, double probability) {
    Objects.requireNonNull(random);
    if (probability < 0 || probability > 1) {
      throw new IllegalArgumentException("probability must be in [0, 1], got " + probability);
    }
    return (op, path) -> {
      if (random.nextDouble() >= probability) {
        return null;
      }
      if (op != FileOperation.WRITE) {
        return random.nextBoolean() ? InjectedFault.IO_ERROR : InjectedFault.NO_SPACE;
      }
      InjectedFault[] writeFaults = {
        InjectedFault.IO_ERROR,
        InjectedFault.NO_SPACE,
        InjectedFault.PARTIAL_WRITE,
        InjectedFault.SHORT_WRITE
      };
      return writeFaults[random.nextInt(writeFaults.length)];
    };
  }
}
