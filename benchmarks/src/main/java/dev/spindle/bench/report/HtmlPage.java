package dev.spindle.bench.report;

import java.util.List;
import java.util.Locale;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * The HTML page of a markdown report: the markdown rendered with GitHub's table syntax, in a page
 * with a style sheet of its own, so that it reads the same offline. Charts are the markdown's
 * images, loaded from the SVG files beside the page.
 */
final class HtmlPage {

  private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());

  private static final String STYLE =
      """
      body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px;
             padding: 0 1em; color: #222; line-height: 1.45; }
      h1, h2, h3 { line-height: 1.2; }
      h2 { margin-top: 2.5em; border-bottom: 1px solid #ccc; padding-bottom: .2em; }
      table { border-collapse: collapse; margin: 1em 0; font-size: .9em; }
      th, td { border: 1px solid #ccc; padding: .3em .6em; }
      th { background: #f4f4f4; }
      tbody tr:nth-child(even) { background: #fafafa; }
      td[align=right], th[align=right] { font-variant-numeric: tabular-nums; }
      img { max-width: 100%; height: auto; display: block; margin: 1em 0; }
      code { background: #f4f4f4; padding: 0 .2em; }
      """;

  private static final String PAGE =
      """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>%s</title>
      <style>
      %s</style>
      </head>
      <body>
      %s</body>
      </html>
      """;

  private HtmlPage() {}

  static String render(String title, String markdown) {
    String body =
        HtmlRenderer.builder()
            .extensions(EXTENSIONS)
            .escapeHtml(true)
            .build()
            .render(Parser.builder().extensions(EXTENSIONS).build().parse(markdown));
    return String.format(Locale.ROOT, PAGE, escape(title), STYLE, body);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
