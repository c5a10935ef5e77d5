package dev.spindle.release;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A README as the checks read it: its sections, fenced code blocks, tables, headings (as the
 * anchors GitHub gives them) and relative links. Text inside fenced code blocks is neither a
 * heading nor a link. Immutable.
 */
final class MarkdownFile {

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("#{1,6} (.*)");

  final Path path;
  final String text;

  /** The lines of the text. */
  private final List<String> lines;

  /** The same lines, each line of a fenced code block (fences included) blanked out. */
  private final List<String> prose;

  MarkdownFile(Path path, String text) {
    this.path = path;
    this.text = text;
    this.lines = List.of(text.split("\n", -1));
    this.prose = withoutCodeBlocks(lines);
  }

  static MarkdownFile read(Path path) throws IOException {
    return new MarkdownFile(path, Files.readString(path, StandardCharsets.UTF_8));
  }

  /**
   * The section under the level-2 heading that starts with {@code headingStart}, up to the next
   * level-2 heading, or null if there is none.
   */
  String section(String headingStart) {
    int start = 0;
    while (start < prose.size() && prose.get(start).startsWith("## " + headingStart) == false) {
      start++;
    }
    if (start == prose.size()) {
      return null;
    }
    int end = start + 1;
    while (end < prose.size() && prose.get(end).startsWith("## ") == false) {
      end++;
    }
    return String.join("\n", lines.subList(start, end));
  }

  /** The level-2 headings, without their "## ". */
  List<String> sectionHeadings() {
    List<String> headings = new ArrayList<>();
    for (String line : prose) {
      if (line.startsWith("## ")) {
        headings.add(line.substring(3));
      }
    }
    return headings;
  }

  /** The anchors of every heading, as GitHub makes them (repeated ones get "-1", "-2", ...). */
  Set<String> anchors() {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : prose) {
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug = slug(heading.group(1));
        int count = seen.merge(slug, 1, Integer::sum);
        anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
      }
    }
    return anchors;
  }

  /**
   * GitHub's anchor of a heading: lower case, punctuation but '-' and '_' dropped, '-' for spaces.
   */
  static String slug(String heading) {
    return heading
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
        .replaceAll("\\s", "-");
  }

  /** The targets of the links outside code blocks that name no scheme ({@code http:} ...). */
  List<String> relativeLinks() {
    List<String> links = new ArrayList<>();
    Matcher matcher = LINK.matcher(String.join("\n", prose));
    while (matcher.find()) {
      String target = matcher.group(1);
      if (target.matches("[a-z]+:.*") == false) {
        links.add(target);
      }
    }
    return links;
  }

  /** The bodies of the fenced code blocks of {@code text} whose fence names {@code language}. */
  static List<String> codeBlocks(String text, String language) {
    List<String> blocks = new ArrayList<>();
    Matcher matcher =
        Pattern.compile("(?m)^ *```" + Pattern.quote(language) + "\n(.*?)^ *```$", Pattern.DOTALL)
            .matcher(text);
    while (matcher.find()) {
      blocks.add(matcher.group(1));
    }
    return blocks;
  }

  /**
   * The rows of every table in {@code text} whose header row starts with {@code headerStart}, each
   * row split into its cells (trimmed, without the outer pipes); the header and rule rows are left
   * out. One list per table.
   */
  static List<List<List<String>>> tables(String text, String headerStart) {
    List<List<List<String>>> tables = new ArrayList<>();
    List<List<String>> current = null;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith(headerStart)) {
        current = new ArrayList<>();
        tables.add(current);
      } else if (current != null && line.startsWith("|")) {
        if (line.startsWith("|---") == false) {
          current.add(cells(line));
        }
      } else {
        current = null;
      }
    }
    return tables;
  }

  private static List<String> cells(String row) {
    String inner = row.substring(1, row.endsWith("|") ? row.length() - 1 : row.length());
    List<String> cells = new ArrayList<>();
    for (String cell : inner.split("(?<!\\\\)\\|", -1)) {
      cells.add(cell.strip());
    }
    return cells;
  }

  private static List<String> withoutCodeBlocks(List<String> lines) {
    List<String> prose = new ArrayList<>();
    boolean inCode = false;
    for (String line : lines) {
      boolean fence = line.strip().startsWith("```");
      prose.add(inCode || fence ? "" : line);
      if (fence) {
        inCode = inCode == false;
      }
    }
    return List.copyOf(prose);
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
