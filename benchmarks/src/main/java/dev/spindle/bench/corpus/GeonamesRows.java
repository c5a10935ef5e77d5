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

  /**
   * Value {@code v}, of row {@code v / F} and field {@code v % F}: {@code [starts[v], starts[v + 1]
   * - 1)}.
   */
  private final int[] starts;

  private GeonamesRows(byte[] data, int[] starts) {
    this.data = data;
    this.starts = starts;
  }

  /** Draws {@code rowCount} rows; the same seed gives the same rows. */
  public static GeonamesRows build(int rowCount, long seed) throws IOException {
    Words words = Words.read(seed);
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    for (int row = 0; row < rowCount; row++) {
      for (int field = 0; field < FIELDS.size(); field++) {
        text.append(value(words, field, random)).append(field + 1 < FIELDS.size() ? '\t' : '\n');
      }
    }
    return parse(text.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Writes the rows, for a JVM without the Europarl line file to {@link #read}. */
  public void write(Path file) throws IOException {
    Files.write(file, data);
  }

  /** Reads rows that {@link #write} wrote. */
  public static GeonamesRows read(Path file) throws IOException {
    return parse(Files.readAllBytes(file));
  }

  /** Splits rows of tab-separated values, each value followed by one tab or newline. */
  private static GeonamesRows parse(byte[] data) {
    int values = 0;
    for (byte b : data) {
      values += b == '\t' || b == '\n' ? 1 : 0;
    }
    if (values % FIELDS.size() != 0 || (data.length > 0 && data[data.length - 1] != '\n')) {
      throw new IllegalStateException(values + " values do not make rows of " + FIELDS.size());
    }
    int[] starts = new int[values + 1];
    for (int i = 0, value = 0; i < data.length; i++) {
      if (data[i] == '\t' || data[i] == '\n') {
        starts[++value] = i + 1;
      }
    }
    return new GeonamesRows(data, starts);
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
    return (starts.length - 1) / FIELDS.size();
  }

  /** Every row, tab-separated, one per line, in UTF-8. */
  public byte[] data() {
    return data;
  }

  public int start(int row, int field) {
    return starts[row * FIELDS.size() + field];
  }

  public int length(int row, int field) {
    int value = row * FIELDS.size() + field;
    return starts[value + 1] - 1 - starts[value];
  }

  /** The value as a parser hands it over as text: decoded into a new String. */
  public String string(int row, int field) {
    return new String(data, start(row, field), length(row, field), StandardCharsets.UTF_8);
  }

  /** The tokens of some Europarl speeches in text order, and their ranks by frequency. */
  private record Words(List<String> text, Map<String, Integer> ranks) {
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
      text.forEach(token -> counts.merge(token, 1, Integer::sum));
      List<String> ranked = new ArrayList<>(counts.keySet());
      ranked.sort(
          Comparator.comparing((String token) -> counts.get(token))
              .reversed()
              .thenComparing(Comparator.naturalOrder()));
      Map<String, Integer> ranks = new HashMap<>();
      for (int i = 0; i < ranked.size(); i++) {
        ranks.put(ranked.get(i), i);
      }
      return new Words(text, ranks);
    }

    /** A word from the {@code cardinality} most frequent, drawn in proportion to its frequency. */
    String draw(Random random, int cardinality) {
      while (true) {
        String word = text.get(random.nextInt(text.size()));
        if (ranks.get(word) < cardinality) {
          return word;
        }
      }
    }
  }
}
