package dev.spindle.bench.translog;

import dev.spindle.bench.harness.ChildJvm;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;

/**
 * The JVM of a peer's translog: {@link PeerLogTrials} starts it on the peer's class path with the
 * name of the peer's {@link BenchmarkedLog}, and sends it one request per trial, which it runs with
 * {@link LocalLogTrials}, the same code that runs Spindle's translog in the benchmark's JVM:
 *
 * <pre>
 * load DURABLE THREADS PAYLOAD MILLIS   ->  rate operations syncs p50-nanos p99-nanos
 * fill PAYLOAD BYTES                    ->  bytes of the log's files
 * replay                                ->  operations payload-bytes nanos
 * delete-filled                         ->  ok
 * </pre>
 */
public final class TranslogTrials {

  private TranslogTrials() {}

  /**
   * Serves requests until standard input closes.
   *
   * @param args the {@link BenchmarkedLog} class and the folder the logs go to
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: TranslogTrials logClass workDir");
    }
    // Before the peer's classes load: whatever they print goes to standard error.
    ChildJvm.protocolOutput();
    try (LocalLogTrials trials = new LocalLogTrials(instantiate(args[0]), Path.of(args[1]))) {
      ChildJvm.serve(
          request -> {
            String[] words = request.split(" ");
            return switch (words[0]) {
              case "load" ->
                  trials
                      .load(
                          Boolean.parseBoolean(words[1]),
                          Integer.parseInt(words[2]),
                          Integer.parseInt(words[3]),
                          Long.parseLong(words[4]))
                      .toLine();
              case "fill" ->
                  Long.toString(trials.fill(Integer.parseInt(words[1]), Long.parseLong(words[2])));
              case "replay" -> trials.replay().toLine();
              case "delete-filled" -> {
                trials.deleteFilled();
                yield "ok";
              }
              default -> throw new IllegalArgumentException("unknown request: " + request);
            };
          });
    }
  }

  private static BenchmarkedLog instantiate(String className) throws IOException {
    try {
      return Class.forName(className)
          .asSubclass(BenchmarkedLog.class)
          .getConstructor()
          .newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new IOException("cannot create the log " + className, cause);
    }
  }
}
