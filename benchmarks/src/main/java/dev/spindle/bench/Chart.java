package dev.spindle.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A chart of a benchmark's results. The report draws each chart of a {@link Section} as an SVG file
 * beside {@code report.md}, embeds it there above the section's text, and shows it in {@code
 * report.html} next to the same tables.
 *
 * <p>A chart has categories along its horizontal axis and one value per category in each series:
 *
 * <ul>
 *   <li>{@linkplain Builder#bars bars}: one bar per category, grouped with the other bar series,
 *       for what was measured (e.g. each contender's median rate);
 *   <li>{@linkplain Builder#line lines}: a dashed line through one value per category, for a limit
 *       that differs from category to category (e.g. threads divided by the fsync latency);
 *   <li>{@linkplain Builder#referenceLine reference lines}: a horizontal line at one value, for a
 *       baseline (e.g. 1.0 on a chart of ratios).
 * </ul>
 *
 * <p>A value that was not measured is {@link Double#NaN} and is left out, as is any value the axis
 * cannot show: an infinite one, or one at or below zero on a {@linkplain Builder#logarithmic()
 * logarithmic} axis, which values that span orders of magnitude read better on.
 *
 * <pre>{@code
 * Chart chart =
 *     Chart.builder("Durable appends, 100-byte payloads")
 *         .axes("threads", "operations per second")
 *         .categories(List.of(1, 16, 64))
 *         .bars("Spindle translog", List.of(480.0, 7_100.0, 21_000.0))
 *         .bars("global lock", List.of(450.0, 460.0, 455.0))
 *         .line("fsync limit", List.of(520.0, 8_000.0, 32_000.0))
 *         .logarithmic()
 *         .build();
 * return new Section(title, body, details).withCharts(chart);
 * }</pre>
 *
 * <p>Series of a {@link dev.spindle.bench.harness.Measurements} come from its {@code medians()} and
 * {@code medianRatios(baseline)}, in the order of its {@code contenders()}. Immutable.
 */
public final class Chart {

  /** How a series is drawn. */
  public enum SeriesKind {
    /** Grouped bars, one per category. */
    BARS,
    /** A dashed line through one value per category. */
    LINE
  }

  /** One named series: a value per category, {@code NaN} where nothing was measured. */
  public static final class Series {
    private final String name;
    private final SeriesKind kind;
    private final List<Double> values;

    private Series(String name, SeriesKind kind, List<Double> values) {
      this.name = name;
      this.kind = kind;
      this.values = List.copyOf(values);
    }

    /** The name shown in the legend. */
    public String name() {
      return name;
    }

    /** How the series is drawn. */
    public SeriesKind kind() {
      return kind;
    }

    /** One value per category, in the order of {@link Chart#categories()}. */
    public List<Double> values() {
      return values;
    }
  }

  /** A horizontal line across the chart at one value, with a label. */
  public static final class ReferenceLine {
    private final String label;
    private final double value;

    private ReferenceLine(String label, double value) {
      this.label = label;
      this.value = value;
    }

    /** The label drawn beside the line. */
    public String label() {
      return label;
    }

    /** Where the line crosses the value axis. */
    public double value() {
      return value;
    }
  }

  private final String title;
  private final String categoryAxis;
  private final String valueAxis;
  private final List<String> categories;
  private final List<Series> series;
  private final List<ReferenceLine> referenceLines;
  private final boolean logarithmic;

  private Chart(Builder builder) {
    this.title = builder.title;
    this.categoryAxis = builder.categoryAxis;
    this.valueAxis = builder.valueAxis;
    this.categories = List.copyOf(builder.categories);
    this.series = List.copyOf(builder.series);
    this.referenceLines = List.copyOf(builder.referenceLines);
    this.logarithmic = builder.logarithmic;
  }

  /**
   * Starts a chart.
   *
   * @param title the chart's title, which also names its SVG file and is its text alternative
   */
  public static Builder builder(String title) {
    return new Builder(title);
  }

  /** The chart's title. */
  public String title() {
    return title;
  }

  /** The label of the horizontal axis, which holds the categories; may be empty. */
  public String categoryAxis() {
    return categoryAxis;
  }

  /** The label of the vertical axis, which holds the values. */
  public String valueAxis() {
    return valueAxis;
  }

  /** The categories, left to right. */
  public List<String> categories() {
    return categories;
  }

  /** The series, in the order of the legend. */
  public List<Series> series() {
    return series;
  }

  /** The reference lines. */
  public List<ReferenceLine> referenceLines() {
    return referenceLines;
  }

  /** Whether the value axis is logarithmic. */
  public boolean logarithmic() {
    return logarithmic;
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

    /**
     * Sets the axis labels.
     *
     * @param categoryAxis what the categories are, e.g. {@code "threads"}; empty for none
     * @param valueAxis what the values are, with their unit, e.g. {@code "operations per second"}
     */
    public Builder axes(String categoryAxis, String valueAxis) {
      this.categoryAxis = categoryAxis;
      this.valueAxis = valueAxis;
      return this;
    }

    /** Sets the categories, left to right; each is shown as its {@code toString()}. */
    public Builder categories(List<?> categories) {
      this.categories.clear();
      for (Object category : categories) {
        this.categories.add(category.toString());
      }
      return this;
    }

    /** Adds a series of bars, one value per category, {@code NaN} where not measured. */
    public Builder bars(String name, List<Double> values) {
      series.add(new Series(name, SeriesKind.BARS, values));
      return this;
    }

    /** Adds a series of bars, one value per category, {@code NaN} where not measured. */
    public Builder bars(String name, double... values) {
      return bars(name, boxed(values));
    }

    /** Adds a dashed line through one value per category, {@code NaN} where not measured. */
    public Builder line(String name, List<Double> values) {
      series.add(new Series(name, SeriesKind.LINE, values));
      return this;
    }

    /** Adds a dashed line through one value per category, {@code NaN} where not measured. */
    public Builder line(String name, double... values) {
      return line(name, boxed(values));
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
      if (categories.isEmpty()) {
        throw new IllegalArgumentException(title + ": no categories");
      }
      if (series.isEmpty()) {
        throw new IllegalArgumentException(title + ": no series");
      }
      for (Series s : series) {
        if (s.values.size() != categories.size()) {
          throw new IllegalArgumentException(
              String.format(
                  Locale.ROOT,
                  "%s: series '%s' has %d values for %d categories %s",
                  title,
                  s.name,
                  s.values.size(),
                  categories.size(),
                  categories));
        }
      }
      return new Chart(this);
    }

    private static List<Double> boxed(double[] values) {
      return Arrays.stream(values).boxed().toList();
    }
  }
}
