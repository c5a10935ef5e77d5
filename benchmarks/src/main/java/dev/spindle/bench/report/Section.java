package dev.spindle.bench.report;

import dev.spindle.bench.measure.Measurements;
import java.util.ArrayList;
import java.util.List;

/** One benchmark's part of the report: body, details and charts. Not thread-safe. */
public final class Section {
  private final String title;
  private final StringBuilder body = new StringBuilder();
  private final StringBuilder details = new StringBuilder();
  private final List<Chart> charts = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  /** An empty section; {@code title} is its heading, without the leading {@code #}s. */
  public Section(String title) {
    this.title = title;
  }

  public Section text(String markdown) {
    body.append(markdown);
    return this;
  }

  /** Appends {@link Table#format} of the arguments to the body. */
  public Section text(String pattern, Object... args) {
    return text(Table.format(pattern, args));
  }

  public Section table(Table table) {
    return text(table + "\n");
  }

  /** Appends {@code lead}, then the ratios of {@code measurements}, one list item each. */
  public <T> Section ratios(String lead, Measurements<T> measurements, List<Ratio<T>> ratios) {
    return text(lead + Ratio.list(measurements, ratios));
  }

  /** The summary and ratios in the body, the rounds in the details under {@code caption}. */
  public <T> Section summary(
      Measurements<T> m,
      String column,
      T baseline,
      String unit,
      List<Ratio<T>> ratios,
      String caption) {
    table(Table.summary(m, column, baseline, unit)).ratios("", m, ratios).text("\n");
    return detail(caption, Table.rounds(m, column, unit));
  }

  /** Adds a chart, after the others; throws if its series do not fit its categories. */
  public Section chart(Chart chart) {
    chart.check();
    charts.add(chart);
    return this;
  }

  /**
   * Records a check the benchmark failed, such as contenders that disagree on results, and states
   * it in the body: the report keeps the figures, and {@code bin/bench} exits with status 1.
   */
  public Section fail(String why) {
    failures.add(why);
    return text("**FAILED: " + why + "**\n\n");
  }

  /** The checks that failed, in the order they were recorded. */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  public Section detail(String markdown) {
    details.append(markdown);
    return this;
  }

  public Section detail(String caption, Table table) {
    return detail(caption + ":\n\n" + table + "\n");
  }

  public String title() {
    return title;
  }

  public String body() {
    return body.toString();
  }

  public String details() {
    return details.toString();
  }

  public List<Chart> charts() {
    return List.copyOf(charts);
  }
}
