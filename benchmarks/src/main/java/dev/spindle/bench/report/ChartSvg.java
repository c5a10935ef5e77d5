package dev.spindle.bench.report;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.DoubleStream;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

/** Draws a {@link Chart} into an SVG document with JFreeChart. Stateless and thread-safe. */
final class ChartSvg {
  static final int WIDTH = 800;
  static final int HEIGHT = 420;

  /** Bar colours, in series order: Okabe-Ito's, which stay distinct for colour-blind readers. */
  private static final int[] BAR_COLOURS = {
    0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0xF0E442, 0x999999
  };

  private static final Color LINE_COLOUR = new Color(0x333333);
  private static final Color REFERENCE_COLOUR = new Color(0xB22222);
  private static final float[][] LINE_DASHES = {{6f, 4f}, {2f, 3f}, {10f, 3f, 2f, 3f}};
  private static final String FONT = Font.SANS_SERIF;

  private ChartSvg() {}

  static String render(Chart chart) throws IOException {
    JFreeChart drawn = draw(chart);
    VectorGraphics2D graphics = new VectorGraphics2D();
    drawn.draw(graphics, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SVGProcessor()
        .getDocument(graphics.getCommands(), new PageSize(0, 0, WIDTH, HEIGHT))
        .writeTo(out);
    return withTextDefaults(out.toString(StandardCharsets.UTF_8));
  }

  private static JFreeChart draw(Chart chart) {
    DefaultCategoryDataset bars = new DefaultCategoryDataset();
    DefaultCategoryDataset lines = new DefaultCategoryDataset();
    for (Chart.Series series : chart.series) {
      for (int i = 0; i < chart.categories.size(); i++) {
        double value = series.values().get(i);
        (series.line() ? lines : bars)
            .addValue(
                drawable(chart, value) ? value : null, series.name(), chart.categories.get(i));
      }
    }
    CategoryAxis categoryAxis = new CategoryAxis(chart.categoryAxis);
    categoryAxis.setMaximumCategoryLabelLines(3);
    // A label may reach into the gaps beside its category before it is wrapped.
    categoryAxis.setMaximumCategoryLabelWidthRatio(1.2f);
    categoryAxis.setCategoryMargin(0.15);
    categoryAxis.setTickLabelFont(new Font(FONT, Font.PLAIN, 11));
    categoryAxis.setLabelFont(new Font(FONT, Font.PLAIN, 13));
    ValueAxis valueAxis = valueAxis(chart);
    valueAxis.setTickLabelFont(new Font(FONT, Font.PLAIN, 12));
    valueAxis.setLabelFont(new Font(FONT, Font.PLAIN, 13));
    // On a logarithmic axis a bar grows from the bottom of the axis, not from zero.
    BarRenderer barRenderer = barRenderer(bars, chart.logarithmic ? valueAxis.getLowerBound() : 0);
    CategoryPlot plot = new CategoryPlot(bars, categoryAxis, valueAxis, barRenderer);
    if (lines.getRowCount() > 0) {
      plot.setDataset(1, lines);
      plot.setRenderer(1, lineRenderer(lines));
      plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);
    }
    chart.referenceLines.stream()
        .filter(line -> drawable(chart, line.value()))
        .forEach(line -> plot.addRangeMarker(marker(line)));
    plot.setBackgroundPaint(Color.WHITE);
    plot.setOutlineVisible(false);
    plot.setRangeGridlinePaint(new Color(0xDDDDDD));
    plot.setRangeGridlineStroke(new BasicStroke(1f));
    JFreeChart drawn = new JFreeChart(chart.title, new Font(FONT, Font.BOLD, 15), plot, true);
    drawn.setBackgroundPaint(Color.WHITE);
    drawn.setPadding(new RectangleInsets(8, 8, 8, 8));
    drawn.setAntiAlias(true);
    LegendTitle legend = drawn.getLegend();
    legend.setItemFont(new Font(FONT, Font.PLAIN, 12));
    legend.setPosition(RectangleEdge.BOTTOM);
    legend.setFrame(BlockBorder.NONE);
    return drawn;
  }

  private static BarRenderer barRenderer(DefaultCategoryDataset bars, double base) {
    BarRenderer renderer = new BarRenderer();
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    renderer.setItemMargin(0.05);
    renderer.setBase(base);
    for (int i = 0; i < bars.getRowCount(); i++) {
      renderer.setSeriesPaint(i, new Color(BAR_COLOURS[i % BAR_COLOURS.length]));
    }
    return renderer;
  }

  private static LineAndShapeRenderer lineRenderer(DefaultCategoryDataset lines) {
    LineAndShapeRenderer renderer = new LineAndShapeRenderer(true, true);
    for (int i = 0; i < lines.getRowCount(); i++) {
      renderer.setSeriesPaint(i, LINE_COLOUR);
      float[] dashes = LINE_DASHES[i % LINE_DASHES.length];
      renderer.setSeriesStroke(
          i, new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dashes, 0f));
    }
    return renderer;
  }

  private static ValueMarker marker(Chart.ReferenceLine line) {
    ValueMarker marker = new ValueMarker(line.value());
    marker.setPaint(REFERENCE_COLOUR);
    marker.setStroke(new BasicStroke(1.5f));
    marker.setLabel(line.label());
    marker.setLabelFont(new Font(FONT, Font.PLAIN, 11));
    marker.setLabelPaint(REFERENCE_COLOUR);
    marker.setLabelBackgroundColor(new Color(255, 255, 255, 200));
    marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
    marker.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
    return marker;
  }

  private static ValueAxis valueAxis(Chart chart) {
    DecimalFormat format =
        new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT));
    if (chart.logarithmic == false) {
      NumberAxis axis = new NumberAxis(chart.valueAxis);
      axis.setNumberFormatOverride(format);
      axis.setAutoRangeIncludesZero(true);
      if (values(chart).allMatch(value -> value == Math.rint(value))) {
        // Counts: no ticks between whole numbers.
        axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
      }
      return axis;
    }
    double[] drawn =
        DoubleStream.concat(
                values(chart),
                chart.referenceLines.stream()
                    .mapToDouble(Chart.ReferenceLine::value)
                    .filter(value -> drawable(chart, value)))
            .toArray();
    double min = Arrays.stream(drawn).min().orElse(1);
    double max = Arrays.stream(drawn).max().orElse(10);
    LogAxis axis = new LogAxis(chart.valueAxis);
    axis.setBase(10);
    axis.setNumberFormatOverride(format);
    axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    // Bars start at a round number, a decade below half the least value so that the shortest bar
    // still shows, and the tallest leaves a little room above it.
    axis.setRange(Math.pow(10, Math.floor(Math.log10(min / 2))), max * 1.5);
    return axis;
  }

  /** The series' values that the value axis can show. */
  private static DoubleStream values(Chart chart) {
    return chart.series.stream()
        .flatMap(series -> series.values().stream())
        .mapToDouble(Double::doubleValue)
        .filter(value -> drawable(chart, value));
  }

  /** Whether the value axis can show {@code value}: not NaN, finite, above 0 on a log axis. */
  private static boolean drawable(Chart chart, double value) {
    return Double.isFinite(value) && (chart.logarithmic == false || value > 0);
  }

  /**
   * VectorGraphics2D leaves the size out of 12-point text and names fonts without a fallback: a
   * default size and a sans-serif fallback keep text the width the chart was laid out for.
   */
  private static String withTextDefaults(String svg) {
    return svg.replaceFirst("<svg ", "<svg font-size=\"12px\" ")
        .replaceAll("(font-family:&quot;[^&]*&quot;)", "$1, sans-serif");
  }
}
