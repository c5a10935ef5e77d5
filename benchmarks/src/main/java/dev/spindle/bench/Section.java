package dev.spindle.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One benchmark's part of the report, in markdown, with its charts.
 *
 * @param title the section heading, without the leading {@code #}s
 * @param body the results: what was measured and the tables a reader compares
 * @param details raw per-round numbers, printed in the report's appendix
 * @param charts the charts drawn above the body, in order; see {@link Chart}
 */
public record Section(String title, String body, String details, List<Chart> charts) {

  public Section {
    charts = List.copyOf(charts);
  }

  /** A section without charts; {@link #withCharts} adds them. */
  public Section(String title, String body, String details) {
    this(title, body, details, List.of());
  }

  /** This section with {@code charts} added after the ones it has. */
  public Section withCharts(List<Chart> charts) {
    List<Chart> all = new ArrayList<>(this.charts);
    all.addAll(charts);
    return new Section(title, body, details, all);
  }

  /** This section with {@code charts} added after the ones it has. */
  public Section withCharts(Chart... charts) {
    return withCharts(List.of(charts));
  }
}
