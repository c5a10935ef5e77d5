package dev.spindle.examples;

import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.store.MMapDirectory;

/**
 * The application of README.md's "Getting started": it writes places into a {@link PlaceCatalog} on
 * a {@link HybridDirectory}, commits some of them, closes without committing the rest, reopens
 * (which replays the rest from the translog) and searches. It exits with an exception if a search
 * does not find what was written.
 *
 * <p>Run it with the JVM flags README.md gives, so that Lucene can advise its mappings:
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... dev.spindle.examples.GettingStarted [folder]
 * </pre>
 */
public final class GettingStarted {

  private GettingStarted() {}

  /**
   * Runs the example.
   *
   * @param args an empty folder to keep the catalog in; a new temporary folder if none is given
   * @throws IOException if the catalog cannot be written or read
   */
  public static void main(String[] args) throws IOException {
    Path home =
        args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("spindle-getting-started");
    // Without --enable-native-access Lucene cannot call madvise, and every mapping keeps the
    // kernel's read-ahead whatever HybridDirectory advises.
    System.out.println(
        "read advice: "
            + (MMapDirectory.supportsMadvise()
                ? "on"
                : "off (start the JVM with --enable-native-access=ALL-UNNAMED)"));

    try (PlaceCatalog catalog = open(home)) {
      catalog.put("1\tFR\tParis");
      catalog.put("2\tDE\tBerlin");
      catalog.put("3\tfr\tLyon");
      catalog.commit();
      catalog.put("4\tFR\tMarseille"); // acknowledged, not committed
      catalog.put("2\tDE\tBerlin-Mitte"); // replaces place 2
    }

    try (PlaceCatalog catalog = open(home)) {
      System.out.println("replayed from the translog: " + catalog.replayed());
      List<String> france = catalog.namesIn("fr");
      List<String> germany = catalog.namesIn("De");
      System.out.println("places in fr: " + String.join(", ", france));
      System.out.println("places in de: " + String.join(", ", germany));
      check(catalog.replayed() == 2, "expected 2 writes replayed, got " + catalog.replayed());
      check(france.equals(List.of("Paris", "Lyon", "Marseille")), "wrong places in fr: " + france);
      check(germany.equals(List.of("Berlin-Mitte")), "wrong places in de: " + germany);
    }
    System.out.println("catalog in " + home);
  }

  private static PlaceCatalog open(Path home) throws IOException {
    return PlaceCatalog.open(home.resolve("translog"), new HybridDirectory(home.resolve("index")));
  }

  private static void check(boolean condition, String message) {
    if (condition == false) {
      throw new IllegalStateException(message);
    }
  }
}
