package dev.spindle.bench.report;

import dev.spindle.bench.Chart;
import dev.spindle.bench.Section;
import dev.spindle.bench.harness.Progress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.util.IOUtils;

/**
 * Writes a benchmark report into a folder: {@code report.md}, the markdown report, with every chart
 * embedded as an image; {@code charts/*.svg}, the charts; and {@code report.html}, a page with the
 * same text, tables and charts. Files of an earlier report in the folder are replaced, and charts
 * it no longer has are deleted.
 */
public final class ReportFiles {

  /** The folder beside the reports that holds the charts. */
  static final String CHARTS = "charts";

  private ReportFiles() {}

  /**
   * Writes the report.
   *
   * @param folder where to write; created if it does not exist
   * @param title the report's heading
   * @param preamble markdown before the sections: where and how the report was measured
   * @param sections the benchmarks' sections, in order
   * @return the markdown report, as written to {@code report.md}
   * @throws IOException if a file cannot be written
   */
  public static String write(Path folder, String title, String preamble, List<Section> sections)
      throws IOException {
    Path charts = folder.resolve(CHARTS);
    IOUtils.rm(charts);
    Files.createDirectories(charts);
    StringBuilder markdown = new StringBuilder("# ").append(title).append("\n\n");
    markdown.append(preamble).append('\n');
    Set<String> names = new HashSet<>();
    for (Section section : sections) {
      markdown.append("## ").append(section.title()).append("\n\n");
      for (Chart chart : section.charts()) {
        String svg;
        try {
          svg = ChartSvg.render(chart);
        } catch (RuntimeException e) {
          // A run can take an hour: a chart that cannot be drawn must not cost its report.
          Progress.log("chart '%s' could not be drawn: %s", chart.title(), e);
          markdown.append("*The chart '").append(chart.title()).append("' could not be drawn: ");
          markdown.append(e).append("*\n\n");
          continue;
        }
        String file = uniqueName(names, slug(section.title()) + "-" + slug(chart.title())) + ".svg";
        Files.writeString(charts.resolve(file), svg, StandardCharsets.UTF_8);
        markdown
            .append("![")
            .append(chart.title().replace("[", "\\[").replace("]", "\\]"))
            .append("](")
            .append(CHARTS)
            .append('/')
            .append(file)
            .append(")\n\n");
      }
      markdown.append(section.body());
    }
    markdown.append("## Details\n\n");
    for (Section section : sections) {
      markdown.append("### ").append(section.title()).append("\n\n").append(section.details());
      markdown.append('\n');
    }
    String report = markdown.toString();
    Files.writeString(folder.resolve("report.md"), report, StandardCharsets.UTF_8);
    Files.writeString(
        folder.resolve("report.html"), HtmlPage.render(title, report), StandardCharsets.UTF_8);
    return report;
  }

  /** Lower case letters and digits, the rest folded to single dashes. */
  static String slug(String text) {
    String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    return slug.replaceAll("^-|-$", "");
  }

  private static String uniqueName(Set<String> taken, String name) {
    String candidate = name;
    for (int i = 2; taken.add(candidate) == false; i++) {
      candidate = name + "-" + i;
    }
    return candidate;
  }
}
