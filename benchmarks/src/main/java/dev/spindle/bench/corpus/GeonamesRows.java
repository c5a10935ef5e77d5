package dev.spindle.bench.corpus;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/** Rows shaped like geonames' {@code allCountries.txt}: eight keyword columns. Immutable. */
public final class GeonamesRows {
  /** The keyword columns, and how many distinct words each draws from. */
  public static final List<String> FIELDS =
      List.of(
          "name",
          "feature_class",
          "feature_code",
          "country_code",
          "cc2",
          "admin1_code",
          "admin2_code",
          "timezone");

  private static final int[] CARDINALITIES = {
    Integer.MAX_VALUE, 9, 680, 250, 250, 4_000, 20_000, 400
  };
  private static final int SPEECHES = 3_000;
  private final byte[] data;

  /** Row {@code r}, field {@code f}: bytes {@code [starts[r * F + f], ends[r * F + f])}. */
  private final int[] starts;

  private final int[] ends;
  private final int rowCount;

  private GeonamesRows(byte[] data, int[] starts, int[] ends, int rowCount) {
    this.data = data;
    this.starts = starts;
    this.ends = ends;
    this.rowCount = rowCount;
  }

  /** Draws {@code rowCount} rows; the same seed gives the same rows. */
  public static GeonamesRows build(int rowCount, long seed) throws IOException {
    Words words = Words.read(seed);
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    for (int row = 0; row < rowCount; row++) {
      for (int field = 0; field < FIELDS.size(); field++) {
        if (field > 0) {
          text.append('\t');
        }
        text.append(value(words, field, random));
      }
      text.append('\n');
    }
    return parse(text.toString().getBytes(StandardCharsets.UTF_8), rowCount);
  }

  /** Writes the rows, for a JVM without the Europarl line file to {@link #read}. */
  public void write(Path file) throws IOException {
    Files.write(file, data);
  }

  /** Reads rows that {@link #write} wrote. */
  public static GeonamesRows read(Path file) throws IOException {
    byte[] data = Files.readAllBytes(file);
    int rows = 0;
    for (byte b : data) {
      if (b == '\n') {
        rows++;
      }
    }
    return parse(data, rows);
  }

  private static GeonamesRows parse(byte[] data, int rowCount) {
    int[] starts = new int[rowCount * FIELDS.size()];
    int[] ends = new int[starts.length];
    int value = 0;
    int start = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] == '\t' || data[i] == '\n') {
        starts[value] = start;
        ends[value] = i;
        value++;
        start = i + 1;
      }
    }
    if (value != starts.length) {
      throw new IllegalStateException("expected " + starts.length + " values, found " + value);
    }
    return new GeonamesRows(data, starts, ends, rowCount);
  }

  private static String value(Words words, int field, Random random) {
    String name = FIELDS.get(field);
    if (name.equals("name")) {
      // Place names are one to three words: "Saint-Jean-de-Luz", "Nueva Esperanza".
      int count = 1 + random.nextInt(3);
      StringBuilder value = new StringBuilder(words.draw(random, Integer.MAX_VALUE));
      for (int i = 1; i < count; i++) {
        value.append(' ').append(words.draw(random, Integer.MAX_VALUE));
      }
      return value.toString();
    }
    if (name.equals("timezone")) {
      return words.draw(random, 20) + "/" + words.draw(random, CARDINALITIES[field]);
    }
    return words.draw(random, CARDINALITIES[field]);
  }

  public int rowCount() {
    return rowCount;
  }

  /** Every row, tab-separated, one per line, in UTF-8. */
  public byte[] data() {
    return data;
  }

  /** Where the value of {@code field} in {@code row} starts in {@link #data}. */
  public int start(int row, int field) {
    return starts[row * FIELDS.size() + field];
  }

  /** How many bytes the value of {@code field} in {@code row} has. */
  public int length(int row, int field) {
    int index = row * FIELDS.size() + field;
    return ends[index] - starts[index];
  }

  /** The value as a parser hands it over as text: decoded into a new String. */
  public String string(int row, int field) {
    return new String(data, start(row, field), length(row, field), StandardCharsets.UTF_8);
  }

  /** The tokens of some Europarl speeches, in text order and ranked by frequency. */
  private static final class Words {
    private final List<String> ranked;
    private final int[] textRanks;

    private Words(List<String> ranked, int[] textRanks) {
      this.ranked = ranked;
      this.textRanks = textRanks;
    }

    static Words read(long seed) throws IOException {
      List<String> text = new ArrayList<>();
      try (Corpus.Lines lines = new Corpus.Lines(seed);
          StandardTokenizer tokenizer = new StandardTokenizer()) {
        CharTermAttribute term = tokenizer.addAttribute(CharTermAttribute.class);
        for (int i = 0; i < SPEECHES; i++) {
          tokenizer.setReader(new StringReader(lines.next().body()));
          tokenizer.reset();
          while (tokenizer.incrementToken()) {
            text.add(term.toString());
          }
          tokenizer.end();
          tokenizer.close();
        }
      }
      Map<String, Integer> counts = new HashMap<>();
      for (String token : text) {
        counts.merge(token, 1, Integer::sum);
      }
      List<String> ranked = new ArrayList<>(counts.keySet());
      ranked.sort(
          Comparator.comparing((String token) -> counts.get(token))
              .reversed()
              .thenComparing(Comparator.naturalOrder()));
      Map<String, Integer> rank = new HashMap<>();
      for (int i = 0; i < ranked.size(); i++) {
        rank.put(ranked.get(i), i);
      }
      int[] textRanks = new int[text.size()];
      for (int i = 0; i < textRanks.length; i++) {
        textRanks[i] = rank.get(text.get(i));
      }
      return new Words(ranked, textRanks);
    }

    /** A word from the {@code cardinality} most frequent, drawn in proportion to its frequency. */
    String draw(Random random, int cardinality) {
      while (true) {
        int rank = textRanks[random.nextInt(textRanks.length)];
        if (rank < cardinality) {
          return ranked.get(rank);
        }
      }
    }
  }
}
