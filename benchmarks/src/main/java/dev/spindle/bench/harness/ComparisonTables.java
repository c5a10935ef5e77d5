package dev.spindle.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders {@link Measurements} as the markdown tables of the report. */
public final class ComparisonTables {

  private ComparisonTables() {}

  /**
   * The summary table: each contender's median rate, its {@linkplain Measurements#medianRatio
   * ratio} to {@code baseline}, and how far its rounds spread, so a reader can tell a real
   * difference from noise.
   *
   * @param contenderColumn the heading of the first column, e.g. {@code "Directory"}
   * @param unit what the rate counts, e.g. {@code "lookups/s"}
   */
  public static <T> String summary(
      Measurements<T> measurements, String contenderColumn, T baseline, String unit) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                contenderColumn,
                unit + " (median)",
                "vs " + baseline + " (median ratio)",
                "spread (max-min)/median"));
    for (T contender : measurements.contenders()) {
      double median = measurements.median(contender);
      double spread = (measurements.max(contender) - measurements.min(contender)) / median;
      table.row(
          List.of(
              contender.toString(),
              format("%,.0f", median),
              format("%.3fx", measurements.medianRatio(contender, baseline)),
              format("%.1f%%", spread * 100)));
    }
    return table.toString();
  }

  /** The ratios, one list item each, with their targets. */
  public static <T> String ratios(Measurements<T> measurements, List<Ratio<T>> ratios) {
    StringBuilder out = new StringBuilder();
    for (Ratio<T> ratio : ratios) {
      out.append(ratio.render(measurements));
    }
    return out.toString();
  }

  /** Every measured round's rate, one column per round, in the order the rounds ran. */
  public static <T> String rounds(
      Measurements<T> measurements, String contenderColumn, String unit) {
    int roundCount = measurements.rates(measurements.contenders().get(0)).size();
    List<String> header = new ArrayList<>();
    header.add(contenderColumn + " (" + unit + ")");
    for (int round = 1; round <= roundCount; round++) {
      header.add("round " + round);
    }
    MarkdownTable table = new MarkdownTable(header);
    for (T contender : measurements.contenders()) {
      List<String> row = new ArrayList<>();
      row.add(contender.toString());
      for (double rate : measurements.rates(contender)) {
        row.add(format("%,.0f", rate));
      }
      table.row(row);
    }
    return table.toString();
  }

  private static String format(String pattern, double value) {
    return String.format(Locale.ROOT, pattern, value);
  }
}
