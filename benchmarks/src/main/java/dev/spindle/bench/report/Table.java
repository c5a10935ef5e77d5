package dev.spindle.bench.report;

import dev.spindle.bench.measure.Measurements;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A markdown table, first column left-aligned, and the report's number formats. Not thread-safe.
 */
public final class Table {
  /** A column of a table of rows of type {@code R}: its heading, and the cell of a row. */
  public record Column<R>(String header, Function<R, String> cell) {}

  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  public Table(List<String> header) {
    this.header = List.copyOf(header);
  }

  public Table(String... header) {
    this(List.of(header));
  }

  /** Adds a row of as many cells as there are headings, and returns this table. */
  public Table row(List<String> cells) {
    if (cells.size() != header.size()) {
      throw new IllegalArgumentException(
          "expected " + header.size() + " cells, got " + cells.size() + ": " + cells);
    }
    rows.add(List.copyOf(cells));
    return this;
  }

  /** Adds a row: the label's {@code toString()}, then the cells. */
  public Table row(Object label, String... cells) {
    List<String> row = new ArrayList<>(List.of(label.toString()));
    row.addAll(List.of(cells));
    return row(row);
  }

  public static <R> Column<R> column(String header, Function<R, String> cell) {
    return new Column<>(header, cell);
  }

  /** A row per element of {@code rows}: its {@code toString()}, then a cell per column. */
  @SafeVarargs
  public static <R> Table of(String first, List<R> rows, Column<R>... columns) {
    return of(first, rows, List.of(columns));
  }

  /** {@link #of(String, List, Column[])} with the columns in a list, for tables built in a loop. */
  public static <R> Table of(String first, List<R> rows, List<Column<R>> columns) {
    List<String> header = new ArrayList<>(List.of(first));
    columns.forEach(column -> header.add(column.header()));
    Table table = new Table(header);
    for (R row : rows) {
      List<String> cells = new ArrayList<>(List.of(row.toString()));
      columns.forEach(column -> cells.add(column.cell().apply(row)));
      table.row(cells);
    }
    return table;
  }

  /** {@link String#format} in the root locale, as every figure of the report is written. */
  public static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }

  /** "1 thread" or "{@code count} threads". */
  public static String threads(int count) {
    return count == 1 ? "1 thread" : count + " threads";
  }

  /** {@code bytes} in whole MiB, or {@code unknown} if negative. */
  public static String mebibytes(long bytes) {
    return bytes < 0 ? "unknown" : (bytes >> 20) + " MiB";
  }

  /** {@code value} in {@code pattern}, or {@code -} if it was not measured (NaN). */
  public static String number(String pattern, double value) {
    return Double.isNaN(value) ? "-" : format(pattern, value);
  }

  /** Each contender's median, median ratio to {@code baseline}, and spread (noise). */
  public static <T> Table summary(Measurements<T> m, String column, T baseline, String unit) {
    return of(
        column,
        m.contenders(),
        column(unit + " (median)", c -> number("%,.0f", m.median(c))),
        column(
            "vs " + baseline + " (median ratio)", c -> number("%.3fx", m.medianRatio(c, baseline))),
        column("spread (max-min)/median", c -> number("%.1f%%", m.spread(c) * 100)));
  }

  /** Every measured round's value, one column per round, in the order the rounds ran. */
  public static <T> Table rounds(Measurements<T> m, String column, String unit) {
    int count = m.contenders().stream().mapToInt(c -> m.values(c).size()).max().orElse(0);
    List<Column<T>> rounds = new ArrayList<>();
    for (int round = 0; round < count; round++) {
      int r = round;
      rounds.add(
          column(
              "round " + (r + 1),
              c -> r < m.values(c).size() ? number("%,.0f", m.values(c).get(r)) : "-"));
    }
    return of(column + " (" + unit + ")", m.contenders(), rounds);
  }

  @Override
  public String toString() {
    int[] widths = new int[header.size()];
    for (int column = 0; column < widths.length; column++) {
      // Three is the narrowest rule markdown accepts with an alignment colon.
      widths[column] = Math.max(3, header.get(column).length());
      for (List<String> row : rows) {
        widths[column] = Math.max(widths[column], row.get(column).length());
      }
    }
    StringBuilder out = new StringBuilder();
    appendRow(out, header, widths);
    out.append('|');
    for (int column = 0; column < widths.length; column++) {
      String rule = "-".repeat(widths[column] - 1);
      out.append(column == 0 ? " :" + rule : " " + rule + ":").append(" |");
    }
    out.append('\n');
    rows.forEach(row -> appendRow(out, row, widths));
    return out.toString();
  }

  private static void appendRow(StringBuilder out, List<String> cells, int[] widths) {
    out.append('|');
    for (int column = 0; column < widths.length; column++) {
      String cell = cells.get(column);
      String padding = " ".repeat(widths[column] - cell.length());
      out.append(' ').append(column == 0 ? cell + padding : padding + cell).append(" |");
    }
    out.append('\n');
  }
}
