package dev.spindle.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A chart of a benchmark's results, drawn by the {@link ReportWriter} as an SVG file and embedded
 * under its section's heading. Categories run along the horizontal axis; each series has one value
 * per category, drawn as grouped {@linkplain Builder#bars bars} (what was measured), as a dashed
 * {@linkplain Builder#line line} (a limit that differs per category), and {@linkplain
 * Builder#referenceLine reference lines} cross at one value (a baseline such as a ratio of 1).
 * {@code NaN} marks a value that was not measured and is left out, as is any value the axis cannot
 * show: an infinite one, or one at or below zero on a {@linkplain Builder#logarithmic logarithmic}
 * axis.
 *
 * <pre>{@code
 * Chart.builder("Durable appends, 64-byte payloads")
 *     .axes("threads", "operations per second")
 *     .categories(List.of(1, 16, 64))
 *     .bars("Spindle translog", measurements.medians())
 *     .line("fsync limit", List.of(520.0, 8_000.0, 32_000.0))
 *     .logarithmic()
 *     .build();
 * }</pre>
 *
 * <p>Immutable.
 */
public final class Chart {

  /** One named series: a value per category, drawn as bars or as a dashed line. */
  record Series(String name, boolean line, List<Double> values) {}

  /** A horizontal line across the chart at one value, labelled. */
  record ReferenceLine(String label, double value) {}

  final String title;
  final String categoryAxis;
  final String valueAxis;
  final List<String> categories;
  final List<Series> series;
  final List<ReferenceLine> referenceLines;
  final boolean logarithmic;

  private Chart(Builder builder) {
    this.title = builder.title;
    this.categoryAxis = builder.categoryAxis;
    this.valueAxis = builder.valueAxis;
    this.categories = List.copyOf(builder.categories);
    this.series = List.copyOf(builder.series);
    this.referenceLines = List.copyOf(builder.referenceLines);
    this.logarithmic = builder.logarithmic;
  }

  /** Starts a chart; {@code title} also names its SVG file and is its text alternative. */
  public static Builder builder(String title) {
    return new Builder(title);
  }

  /** The chart's title. */
  public String title() {
    return title;
  }

  @Override
  public String toString() {
    return "Chart(" + title + ", " + series.size() + " series, " + categories + ")";
  }

  /** Collects a chart's parts; {@link #build()} checks that they fit together. Not thread-safe. */
  public static final class Builder {
    private final String title;
    private String categoryAxis = "";
    private String valueAxis = "";
    private final List<String> categories = new ArrayList<>();
    private final List<Series> series = new ArrayList<>();
    private final List<ReferenceLine> referenceLines = new ArrayList<>();
    private boolean logarithmic;

    private Builder(String title) {
      if (title == null || title.isBlank()) {
        throw new IllegalArgumentException("a chart needs a title");
      }
      this.title = title;
    }

    /** The axis labels: what the categories are (may be empty), and the values with their unit. */
    public Builder axes(String categoryAxis, String valueAxis) {
      this.categoryAxis = categoryAxis;
      this.valueAxis = valueAxis;
      return this;
    }

    /** The categories, left to right; each is shown as its {@code toString()}. */
    public Builder categories(List<?> categories) {
      this.categories.clear();
      categories.forEach(category -> this.categories.add(category.toString()));
      return this;
    }

    /** Adds a series of bars, one value per category. */
    public Builder bars(String name, List<Double> values) {
      series.add(new Series(name, false, List.copyOf(values)));
      return this;
    }

    /** Adds a series of bars, one value per category. */
    public Builder bars(String name, double... values) {
      return bars(name, Arrays.stream(values).boxed().toList());
    }

    /** Adds a dashed line through one value per category. */
    public Builder line(String name, List<Double> values) {
      series.add(new Series(name, true, List.copyOf(values)));
      return this;
    }

    /** Adds a horizontal line at {@code value}, labelled. */
    public Builder referenceLine(String label, double value) {
      referenceLines.add(new ReferenceLine(label, value));
      return this;
    }

    /** Makes the value axis logarithmic, which leaves out values at or below zero. */
    public Builder logarithmic() {
      this.logarithmic = true;
      return this;
    }

    /**
     * Builds the chart.
     *
     * @throws IllegalArgumentException if there is no category or no series, or a series does not
     *     have one value per category
     */
    public Chart build() {
      if (categories.isEmpty() || series.isEmpty()) {
        throw new IllegalArgumentException(title + ": no categories or no series");
      }
      for (Series s : series) {
        if (s.values().size() != categories.size()) {
          throw new IllegalArgumentException(
              String.format(
                  Locale.ROOT,
                  "%s: series '%s' has %d values for %d categories %s",
                  title,
                  s.name(),
                  s.values().size(),
                  categories.size(),
                  categories));
        }
      }
      return new Chart(this);
    }
  }
}
