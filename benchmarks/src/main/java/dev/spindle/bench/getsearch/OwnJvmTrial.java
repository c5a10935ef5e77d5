package dev.spindle.bench.getsearch;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.directory.DirectoryReaders;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Rounds;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM that {@link OwnJvmRun} starts to measure one directory alone: opens it over the index,
 * runs one workload for some rounds and prints the median rate of the measured ones on standard
 * output, a single number.
 */
public final class OwnJvmTrial {

  private OwnJvmTrial() {}

  /**
   * Runs the trial.
   *
   * @param args the index, the contender, the workload, warm-up rounds, measured rounds and the
   *     milliseconds of one round
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 6) {
      throw new IllegalArgumentException(
          "usage: OwnJvmTrial index kind workload warmupRounds measuredRounds roundMillis");
    }
    Path index = Path.of(args[0]);
    DirectoryKind kind = DirectoryKind.valueOf(args[1]);
    Workload workload = Workload.valueOf(args[2]);
    Rounds rounds = new Rounds(Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    long millis = Long.parseLong(args[5]);
    try (DirectoryReaders readers = DirectoryReaders.open(index, List.of(kind));
        GetAndSearchLoad load = GetAndSearchLoad.prepare(readers.reader(kind))) {
      List<Double> rates = new ArrayList<>();
      for (int round = 0; round < rounds.warmup() + rounds.measured(); round++) {
        double rate = load.run(workload, readers.reader(kind), millis);
        if (round >= rounds.warmup()) {
          rates.add(rate);
        }
      }
      Measurements<DirectoryKind> measurements = new Measurements<>(List.of(kind));
      rates.forEach(rate -> measurements.add(kind, rate));
      PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
      out.println(measurements.median(kind));
    }
  }
}
