package dev.spindle.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A bar chart, with lines for limits, drawn as SVG under its section's heading. Not thread-safe.
 */
public final class Chart {
  record Series(String name, boolean line, List<Double> values) {}

  record ReferenceLine(String label, double value) {}

  final String title;
  String categoryAxis = "";
  String valueAxis = "";
  final List<String> categories = new ArrayList<>();
  final List<Series> series = new ArrayList<>();
  final List<ReferenceLine> referenceLines = new ArrayList<>();
  boolean logarithmic;

  /** A chart titled {@code title}, which also names its SVG file and is its text alternative. */
  public Chart(String title) {
    if (title == null || title.isBlank()) {
      throw new IllegalArgumentException("a chart needs a title");
    }
    this.title = title;
  }

  /** The axis labels: what the categories are (may be empty), and the values with their unit. */
  public Chart axes(String categoryAxis, String valueAxis) {
    this.categoryAxis = categoryAxis;
    this.valueAxis = valueAxis;
    return this;
  }

  /** The categories, left to right, each shown as its {@code toString()}. */
  public Chart categories(List<?> categories) {
    categories.forEach(category -> this.categories.add(category.toString()));
    return this;
  }

  public Chart bars(String name, List<Double> values) {
    series.add(new Series(name, false, List.copyOf(values)));
    return this;
  }

  public Chart bars(String name, double... values) {
    return bars(name, Arrays.stream(values).boxed().toList());
  }

  public Chart line(String name, List<Double> values) {
    series.add(new Series(name, true, List.copyOf(values)));
    return this;
  }

  public Chart referenceLine(String label, double value) {
    referenceLines.add(new ReferenceLine(label, value));
    return this;
  }

  public Chart logarithmic() {
    this.logarithmic = true;
    return this;
  }

  public String title() {
    return title;
  }

  /** Throws if there is no category or series, or a series has not one value per category. */
  void check() {
    if (categories.isEmpty() || series.isEmpty()) {
      throw new IllegalArgumentException(title + ": no categories or no series");
    }
    for (Series s : series) {
      if (s.values().size() != categories.size()) {
        throw new IllegalArgumentException(
            Table.format(
                "%s: series '%s' has %d values for %d categories %s",
                title, s.name(), s.values().size(), categories.size(), categories));
      }
    }
  }
}
