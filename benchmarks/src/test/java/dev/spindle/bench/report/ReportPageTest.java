package dev.spindle.bench.report;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.IOUtils;
import org.w3c.dom.Document;

/**
 * Writes a report from canned sections, as {@code bin/bench} writes a real one, and checks its
 * files: the markdown embeds every chart, each chart is an SVG document, the HTML page has the same
 * tables, and in a real browser the page loads and every chart renders. The browser's screenshot is
 * left in {@code target/report-page/report.png}.
 */
public class ReportPageTest extends LuceneTestCase {

  private static final Pattern MARKDOWN_IMAGE = Pattern.compile("!\\[[^]]*\\]\\((charts/[^)]+)\\)");
  private static final Pattern CHECK_LINE =
      Pattern.compile("^image (\\S+) (\\d+)x(\\d+) (true|false)$", Pattern.MULTILINE);

  /** Appended to a copy of the page: lists every image as the browser decoded it. */
  private static final String CHECK_SCRIPT =
      """
      <script>
      addEventListener('load', () => {
        const out = document.createElement('pre');
        out.id = 'report-check';
        out.textContent = '\\n' + [...document.images]
          .map(i => `image ${i.getAttribute('src')} ${i.naturalWidth}x${i.naturalHeight} ${i.complete}`)
          .concat([`tables ${document.querySelectorAll('table').length}`,
                   `height ${document.documentElement.scrollHeight}`])
          .join('\\n');
        document.body.append(out);
      });
      </script>
      """;

  public void testMarkdownEmbedsEveryChartAsAnSvgFile() throws Exception {
    Path folder = createTempDir();
    List<Section> sections = cannedSections();
    String markdown = ReportWriter.write(folder, "Canned report", "Preamble.\n", sections);

    assertEquals(markdown, Files.readString(folder.resolve("report.md"), StandardCharsets.UTF_8));
    List<String> images = markdownImages(markdown);
    assertEquals(markdown, chartCount(sections), images.size());
    for (String image : images) {
      Document svg = parseXml(folder.resolve(image));
      assertEquals(image, "svg", svg.getDocumentElement().getTagName());
      assertEquals(image, ChartSvg.WIDTH + "px", svg.getDocumentElement().getAttribute("width"));
    }
    for (Section section : sections) {
      assertTrue(section.title(), markdown.contains("## " + section.title() + "\n"));
      assertTrue(section.title(), markdown.contains(section.body()));
      assertTrue(section.title(), markdown.contains(section.details()));
    }

    String html = Files.readString(folder.resolve("report.html"), StandardCharsets.UTF_8);
    assertEquals(html, images.size(), count(html, "<img "));
    assertEquals(html, tableCount(markdown), count(html, "<table>"));
    for (String image : images) {
      assertTrue(image, html.contains("src=\"" + image + "\""));
    }

    // A second report with fewer charts leaves none of the first one's behind.
    ReportWriter.write(folder, "Canned report", "Preamble.\n", sections.subList(0, 1));
    try (var files = Files.list(folder.resolve(ReportWriter.CHARTS))) {
      // Only SVG files: Lucene's test file system adds files of its own to new folders.
      assertEquals(
          chartCount(sections.subList(0, 1)),
          files.filter(file -> file.getFileName().toString().endsWith(".svg")).count());
    }
  }

  public void testPageLoadsAndEveryChartRendersInChromium() throws Exception {
    Path folder = Path.of(System.getProperty("basedir", ".")).resolve("target/report-page");
    IOUtils.rm(folder);
    Files.createDirectories(folder);
    Optional<HeadlessChromium> found = HeadlessChromium.find(createTempDir());
    if (found.isEmpty()) {
      String reason = "chromium is not on the PATH (apt-get install chromium; .ci/run does)";
      if (System.getenv("CI") != null) {
        fail(reason + ", and CI must run this test");
      }
      assumeTrue(reason, false);
    }
    HeadlessChromium chromium = found.get();
    List<Section> sections = cannedSections();
    String markdown = ReportWriter.write(folder, "Canned report", "Preamble.\n", sections);
    Path page = folder.resolve("report.html");
    Path checkPage = folder.resolve("report-check.html");
    String html = Files.readString(page, StandardCharsets.UTF_8);
    Files.writeString(
        checkPage, html.replace("</body>", CHECK_SCRIPT + "</body>"), StandardCharsets.UTF_8);

    String dom = chromium.dumpDom(checkPage);
    assertTrue(dom, dom.contains("<title>Canned report</title>"));
    assertTrue(dom, dom.contains("id=\"report-check\""));
    Matcher matcher = CHECK_LINE.matcher(dom);
    List<String> rendered = new ArrayList<>();
    while (matcher.find()) {
      String description = matcher.group();
      assertTrue(description, Integer.parseInt(matcher.group(2)) > 0);
      assertTrue(description, Integer.parseInt(matcher.group(3)) > 0);
      assertEquals(description, "true", matcher.group(4));
      rendered.add(matcher.group(1));
    }
    assertEquals(dom, markdownImages(markdown), rendered);
    assertTrue(dom, dom.contains("tables " + tableCount(markdown) + "\n"));

    Matcher height = Pattern.compile("height (\\d+)").matcher(dom);
    assertTrue(dom, height.find());
    Path screenshot = folder.resolve("report.png");
    chromium.screenshot(page, screenshot, 1280, Integer.parseInt(height.group(1)));
    try (InputStream in = Files.newInputStream(screenshot)) {
      byte[] signature = in.readNBytes(8);
      assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, signature);
    }
  }

  public void testChartSeriesNeedOneValuePerCategory() {
    Chart chart = new Chart("t").categories(List.of("a", "b")).bars("one value", List.of(1.0));
    Section section = new Section("s");
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> section.chart(chart));
    assertTrue(
        e.getMessage(), e.getMessage().contains("'one value' has 1 values for 2 categories"));
    expectThrows(IllegalArgumentException.class, () -> section.chart(new Chart("t").bars("x")));
    expectThrows(IllegalArgumentException.class, () -> new Chart(" "));
    assertTrue(section.charts().isEmpty());
  }

  /** Sections as benchmarks return them, with every kind of series and awkward values. */
  private List<Section> cannedSections() {
    List<String> contenders =
        List.of(
            "HybridDirectory",
            "HybridDirectory, prefetching",
            "MMapDirectory",
            "MMapDirectory, RANDOM advice",
            "NIOFSDirectory",
            "Elasticsearch hybridfs layout");
    List<Double> hot = new ArrayList<>();
    List<Double> starved = new ArrayList<>();
    Table rates = new Table("Directory", "hot, gets/s", "starved, gets/s");
    for (String contender : contenders) {
      hot.add(50_000 + random().nextDouble() * 100_000);
      // Not measured, or zero, which a logarithmic axis cannot show: both are left out.
      starved.add(random().nextInt(5) == 0 ? Double.NaN : random().nextInt(3) * 2_000.0);
      rates.row(contender, format(hot.getLast()), format(starved.getLast()));
    }
    Section directories =
        new Section("Gets, hot and starved page cache")
            .text("Rates:\n\n")
            .table(rates)
            .detail("Per round", rates)
            .chart(
                new Chart("Get by id, hot and starved page cache")
                    .axes("", "gets/s (median, logarithmic)")
                    .categories(contenders)
                    .bars("hot", hot)
                    .bars("starved (256 MiB cap)", starved)
                    .logarithmic());

    List<Integer> threads = List.of(1, 4, 16, 64);
    Chart appends =
        new Chart("100-byte operations, each thread waiting until its own is durable")
            .axes("threads", "ops/s (median, logarithmic)")
            .categories(threads)
            .logarithmic();
    for (String log : List.of("Spindle translog", "OpenSearch translog", "global lock")) {
      appends.bars(
          log, threads.stream().map(t -> t * (100 + random().nextDouble() * 400)).toList());
    }
    appends.line("fsync limit", threads.stream().map(t -> t * 500.0).toList());
    appends.line("data+checkpoint fsync limit", threads.stream().map(t -> t * 250.0).toList());
    Section translog =
        new Section("Translog: durable appends").text("No table here.\n\n").chart(appends);

    List<String> setups = List.of("StringField + SortedSetDocValuesField", "BytesKeywordField");
    Section keyword =
        new Section("Keyword fields")
            .table(rates)
            .detail("Per round", rates)
            .chart(
                new Chart("Documents per second, relative to StringField")
                    .axes("", "median ratio")
                    .categories(setups)
                    .bars("wall clock", 1.0, 1.2)
                    .bars("CPU time", 1.0, 1.3)
                    .referenceLine("StringField + SortedSetDocValuesField", 1.0))
            .chart(
                new Chart("Bytes allocated per document")
                    .axes("", "B/doc")
                    .categories(setups)
                    .bars("gc.alloc.rate.norm", 900, 400))
            .chart(
                new Chart("What an open reader holds")
                    .axes("", "count")
                    .categories(List.of("file descriptors", "mapped files"))
                    .bars("TieredMergePolicy", 2, 0)
                    .bars("CompoundCap(Tiered)", 8, 8));
    Section noCharts = new Section("A section without charts").table(rates);
    return List.of(directories, translog, keyword, noCharts);
  }

  private static int chartCount(List<Section> sections) {
    return sections.stream().mapToInt(section -> section.charts().size()).sum();
  }

  private static List<String> markdownImages(String markdown) {
    List<String> images = new ArrayList<>();
    Matcher matcher = MARKDOWN_IMAGE.matcher(markdown);
    while (matcher.find()) {
      images.add(matcher.group(1));
    }
    return images;
  }

  /** A markdown table's rule line starts with "| :" (Table's left-aligned first column). */
  private static int tableCount(String markdown) {
    return count(markdown, "\n| :-");
  }

  private static int count(String text, String needle) {
    int count = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      count++;
    }
    return count;
  }

  private static Document parseXml(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    // The SVG's DOCTYPE names the W3C's DTD: never fetch it.
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    try (InputStream in = Files.newInputStream(file)) {
      return factory.newDocumentBuilder().parse(in);
    }
  }

  private static String format(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
  }
}
