package dev.spindle.bench.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * A markdown table whose first column is left-aligned and every other column right-aligned. Not
 * thread-safe.
 */
public final class MarkdownTable {

  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  /** A table with these column headings and no rows yet. */
  public MarkdownTable(List<String> header) {
    this.header = List.copyOf(header);
  }

  /** Adds a row of as many cells as there are headings, and returns this table. */
  public MarkdownTable row(List<String> cells) {
    if (cells.size() != header.size()) {
      throw new IllegalArgumentException(
          "expected " + header.size() + " cells, got " + cells.size() + ": " + cells);
    }
    rows.add(List.copyOf(cells));
    return this;
  }

  @Override
  public String toString() {
    int[] widths = columnWidths();
    StringBuilder out = new StringBuilder();
    appendRow(out, header, widths);
    appendRule(out, widths);
    for (List<String> row : rows) {
      appendRow(out, row, widths);
    }
    return out.toString();
  }

  private int[] columnWidths() {
    int[] widths = new int[header.size()];
    for (int column = 0; column < widths.length; column++) {
      // Three is the narrowest rule markdown accepts with an alignment colon.
      widths[column] = Math.max(3, header.get(column).length());
      for (List<String> row : rows) {
        widths[column] = Math.max(widths[column], row.get(column).length());
      }
    }
    return widths;
  }

  private static void appendRow(StringBuilder out, List<String> cells, int[] widths) {
    out.append('|');
    for (int column = 0; column < widths.length; column++) {
      String cell = cells.get(column);
      String padding = " ".repeat(widths[column] - cell.length());
      out.append(' ');
      out.append(column == 0 ? cell + padding : padding + cell);
      out.append(" |");
    }
    out.append('\n');
  }

  private static void appendRule(StringBuilder out, int[] widths) {
    out.append('|');
    for (int column = 0; column < widths.length; column++) {
      out.append(
          column == 0
              ? " :" + "-".repeat(widths[column] - 1)
              : " " + "-".repeat(widths[column] - 1) + ":");
      out.append(" |");
    }
    out.append('\n');
  }
}
