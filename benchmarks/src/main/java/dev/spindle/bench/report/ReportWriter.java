package dev.spindle.bench.report;

import dev.spindle.bench.measure.Progress;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.util.IOUtils;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/** Writes {@code report.md}, its charts as {@code charts/*.svg}, and {@code report.html}. */
public final class ReportWriter {
  /** The folder beside the reports that holds the charts. */
  static final String CHARTS = "charts";

  private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());

  private ReportWriter() {}

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
        markdown.append(embed(charts, names, section, chart));
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
    Files.writeString(folder.resolve("report.html"), html(title, report), StandardCharsets.UTF_8);
    return report;
  }

  /** Draws {@code chart} into its SVG file and returns the markdown image that shows it. */
  private static String embed(Path charts, Set<String> names, Section section, Chart chart)
      throws IOException {
    String svg;
    try {
      svg = ChartSvg.render(chart);
    } catch (RuntimeException e) {
      // A run can take an hour: a chart that cannot be drawn must not cost its report.
      Progress.log("chart '%s' could not be drawn: %s", chart.title(), e);
      return "*The chart '" + chart.title() + "' could not be drawn: " + e + "*\n\n";
    }
    String name = slug(section.title()) + "-" + slug(chart.title());
    String file = name;
    for (int i = 2; names.add(file) == false; i++) {
      file = name + "-" + i;
    }
    Files.writeString(charts.resolve(file + ".svg"), svg, StandardCharsets.UTF_8);
    String alt = chart.title().replace("[", "\\[").replace("]", "\\]");
    return "![" + alt + "](" + CHARTS + "/" + file + ".svg)\n\n";
  }

  /** Lower case letters and digits, the rest folded to single dashes. */
  static String slug(String text) {
    return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
  }

  private static String html(String title, String markdown) throws IOException {
    String body =
        HtmlRenderer.builder()
            .extensions(EXTENSIONS)
            .escapeHtml(true)
            .build()
            .render(Parser.builder().extensions(EXTENSIONS).build().parse(markdown));
    String escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    try (InputStream page = ReportWriter.class.getResourceAsStream("page.html")) {
      return new String(page.readAllBytes(), StandardCharsets.UTF_8)
          .replace("{{title}}", escaped)
          .replace("{{body}}", body);
    }
  }
}
