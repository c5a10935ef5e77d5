package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.column;
import static dev.spindle.bench.report.Table.number;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Table.Column;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What a trial's measured part achieved: operations (documents, ids) per second, and their cost;
 * with the table columns of many trials' outcomes, one row per directory.
 */
public record Outcome(double rate, IoCost io) {

  /** The KiB read per operation. */
  public static final ToDoubleFunction<IoCost> KIB = io -> io.bytesRead() / 1024;

  /** The rates of {@code trials}; none where they were not measured (null). */
  public static Measurements<DirectoryKind> rates(Trials<DirectoryKind, Outcome> trials) {
    return trials == null ? new Measurements<>(List.of()) : trials.metric(Outcome::rate);
  }

  /** The median of one cost of {@code kind}'s trials; NaN where they were not measured (null). */
  public static double medianCost(
      Trials<DirectoryKind, Outcome> trials, DirectoryKind kind, ToDoubleFunction<IoCost> cost) {
    return trials == null ? Double.NaN : trials.median(kind, o -> cost.applyAsDouble(o.io()));
  }

  /** A column of each directory's median rate. */
  public static Column<DirectoryKind> rate(String header, Measurements<DirectoryKind> rates) {
    return column(header, k -> number("%,.0f", rates.median(k)));
  }

  /** A column of each directory's median ratio to {@code baseline}. */
  public static Column<DirectoryKind> ratio(
      String header, Measurements<DirectoryKind> rates, DirectoryKind baseline) {
    return column(header, k -> number("%.3fx", rates.medianRatio(k, baseline)));
  }

  /** A column of each directory's median cost, in {@code pattern}. */
  public static Column<DirectoryKind> cost(
      String header,
      String pattern,
      Trials<DirectoryKind, Outcome> trials,
      ToDoubleFunction<IoCost> cost) {
    return column(header, k -> number(pattern, medianCost(trials, k, cost)));
  }
}
