package dev.spindle.bench.updates;

import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.BlockDeviceStat;
import dev.spindle.bench.harness.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.lucene.store.Directory;

/**
 * A JVM that runs update trials: {@link dev.spindle.bench.directory.DirectoryJvms} starts one for
 * Spindle's and Lucene's directories and one for each peer's, on the peer's class path, inside a
 * memory cgroup when the page cache is to be starved, and sends one request per trial:
 *
 * <pre>
 * trial KIND WARMUP-MILLIS MEASURE-MILLIS  ->  writes/s  bytes/write  faults/write  device-reads/write  read-queue-depth
 * </pre>
 *
 * Each trial opens the directory over the base index, writes unmeasured, then measured, and rolls
 * back, so every trial starts from the same index.
 */
public final class UpdateTrials {

  private UpdateTrials() {}

  /**
   * Serves trials until standard input closes.
   *
   * @param args the base index, the rows file, the number of base documents, the writer's RAM
   *     buffer in MB, and the seed of the update stream
   */
  public static void main(String[] args) throws IOException {
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    if (args.length != 5) {
      throw new IllegalArgumentException(
          "usage: UpdateTrials index rowsFile baseDocs ramBufferMb seed");
    }
    // Before the peer's classes load: whatever they print goes to standard error.
    ChildJvm.protocolOutput();
    Path index = Path.of(args[0]);
    UpdateLoad load =
        new UpdateLoad(
            GeonamesRows.read(Path.of(args[1])),
            Integer.parseInt(args[2]),
            Double.parseDouble(args[3]),
            Long.parseLong(args[4]));
    Optional<BlockDeviceStat> device = BlockDeviceStat.of(index);
    ChildJvm.serve(
        request -> {
          String[] words = request.split(" ");
          if (words.length != 4 || words[0].equals("trial") == false) {
            throw new IllegalArgumentException("unknown request: " + request);
          }
          DirectoryKind kind = DirectoryKind.valueOf(words[1]);
          UpdateLoad.Trial trial;
          try (Directory directory = kind.open(index)) {
            trial = load.run(directory, Long.parseLong(words[2]), Long.parseLong(words[3]), device);
          }
          return trial.toLine();
        });
    System.err.println("updates: checksum " + load.checksum());
  }
}
