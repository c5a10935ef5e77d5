package dev.spindle.bench.indexing;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A JVM that runs indexing trials: {@link dev.spindle.bench.directory.DirectoryJvms} starts one per
 * directory, a peer's on the peer's class path, and sends one request per trial:
 *
 * <pre>
 * trial KIND  ->  docs/s
 * </pre>
 *
 * Each trial applies every update of the updates file to a fresh copy of the base index opened
 * through the kind's directory ({@link IndexingTrial}).
 */
public final class IndexingTrials {

  private IndexingTrials() {}

  /**
   * Serves trials until standard input closes.
   *
   * @param args the base index, the updates file ({@link Updates#write}), the folder for the copies
   *     of the base index, and how many writes go between two reopenings of the reader
   */
  public static void main(String[] args) throws IOException {
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    if (args.length != 4) {
      throw new IllegalArgumentException(
          "usage: IndexingTrials baseIndex updatesFile workDir refreshEvery");
    }
    // Before the peer's classes load: whatever they print goes to standard error.
    ChildJvm.protocolOutput();
    IndexingTrial trial =
        new IndexingTrial(
            Path.of(args[0]),
            Path.of(args[2]),
            Updates.read(Path.of(args[1])),
            Integer.parseInt(args[3]));
    ChildJvm.serve(
        request -> {
          String[] words = request.split(" ");
          if (words.length != 2 || words[0].equals("trial") == false) {
            throw new IllegalArgumentException("unknown request: " + request);
          }
          return Double.toString(trial.run(DirectoryKind.valueOf(words[1])));
        });
    System.err.println("indexing: blackhole (sum of doc ids found) " + trial.docIdSum());
  }
}
