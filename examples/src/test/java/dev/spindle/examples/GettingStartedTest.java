package dev.spindle.examples;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import dev.spindle.tests.RandomHybridDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Keeps README.md's getting-started path true: the application runs with the JVM flags README.md
 * gives and finds what it wrote, its catalog keeps every acknowledged write across restarts on any
 * {@link RandomHybridDirectory}, and the dependencies README.md lists resolve to one copy of each
 * class.
 */
public class GettingStartedTest extends LuceneTestCase {

  private static final String LUCENE_NATIVE_ACCESS_WARNING =
      "Lucene has no access to native functions";

  public void testMainRunsWithTheReadmeFlags() throws Exception {
    List<String> flags = List.of(System.getProperty("app.jvm.args").split(" "));
    assertTrue(flags.toString(), flags.contains("--enable-native-access=ALL-UNNAMED"));
    Run run = runMain(flags);
    assertEquals(run.toString(), 0, run.exitCode);
    assertTrue(run.toString(), run.stdout.contains("read advice: on\n"));
    assertTrue(run.toString(), run.stdout.contains("replayed from the translog: 2\n"));
    assertTrue(run.toString(), run.stdout.contains("places in fr: Paris, Lyon, Marseille\n"));
    assertTrue(run.toString(), run.stdout.contains("places in de: Berlin-Mitte\n"));
    assertFalse(run.toString(), run.stderr.contains(LUCENE_NATIVE_ACCESS_WARNING));
  }

  /** What README.md says about the flag: without it Java warns that Lucene's calls will fail. */
  public void testWithoutTheFlagJavaWarnsOfLucenesNativeCalls() throws Exception {
    assumeTrue("restricted methods are final API since Java 22", Runtime.version().feature() >= 22);
    Run run = runMain(List.of());
    assertEquals(run.toString(), 0, run.exitCode);
    assertTrue(run.toString(), run.stderr.contains("restricted method"));
    assertTrue(run.toString(), run.stderr.contains("--enable-native-access=ALL-UNNAMED"));
  }

  /**
   * What README.md says the flag is for: where Java refuses native access, Lucene cannot advise.
   */
  public void testWithoutNativeAccessLuceneCannotAdvise() throws Exception {
    assumeTrue("--illegal-native-access exists since Java 24", Runtime.version().feature() >= 24);
    Run run = runMain(List.of("--illegal-native-access=deny"));
    assertEquals(run.toString(), 0, run.exitCode);
    assertTrue(run.toString(), run.stdout.contains("read advice: off"));
    assertTrue(run.toString(), run.stderr.contains(LUCENE_NATIVE_ACCESS_WARNING));
  }

  public void testAcknowledgedWritesSurviveRestarts() throws IOException {
    Path home = createTempDir();
    Map<String, String[]> places = new HashMap<>(); // id -> {country, name}
    int restarts = atLeast(3);
    for (int restart = 0; restart < restarts; restart++) {
      try (PlaceCatalog catalog = open(home)) {
        assertExpectedPlaces(catalog, places);
        int writes = atLeast(20);
        for (int i = 0; i < writes; i++) {
          String id = Integer.toString(random().nextInt(50));
          String country = RandomPicks.randomFrom(random(), List.of("fr", "FR", "de", "Nl", "es"));
          String name = TestUtil.randomUnicodeString(random(), 10).replace('\t', ' ');
          catalog.put(id + "\t" + country + "\t" + name);
          places.put(id, new String[] {country.toLowerCase(Locale.ROOT), name});
          if (random().nextInt(10) == 0) {
            catalog.commit();
          }
        }
        assertExpectedPlaces(catalog, places);
      }
    }
  }

  public void testMalformedLineIsRefusedBeforeItIsAcknowledged() throws IOException {
    Path home = createTempDir();
    try (PlaceCatalog catalog = open(home)) {
      catalog.put("1\tfr\tParis");
      IllegalArgumentException e =
          expectThrows(IllegalArgumentException.class, () -> catalog.put("2\tno name"));
      assertTrue(e.getMessage(), e.getMessage().contains("'2\tno name'"));
    }
    try (PlaceCatalog catalog = open(home)) {
      assertEquals(1, catalog.replayed());
      assertEquals(List.of("Paris"), catalog.namesIn("FR"));
    }
  }

  /** JUnit 4.13.2 brings hamcrest-core 1.3, spindle-test-framework hamcrest 2.2: one must go. */
  public void testOneCopyOfHamcrestOnTheTestClassPath() throws IOException {
    List<?> copies =
        Collections.list(
            getClass().getClassLoader().getResources("org/hamcrest/CoreMatchers.class"));
    assertEquals(copies.toString(), 1, copies.size());
  }

  private PlaceCatalog open(Path home) throws IOException {
    return PlaceCatalog.open(
        home.resolve("translog"), RandomHybridDirectory.create(random(), home.resolve("index")));
  }

  private static void assertExpectedPlaces(PlaceCatalog catalog, Map<String, String[]> places)
      throws IOException {
    for (String country : List.of("fr", "de", "nl", "es")) {
      List<String> expected = new ArrayList<>();
      for (String[] place : places.values()) {
        if (place[0].equals(country)) {
          expected.add(place[1]);
        }
      }
      List<String> actual = new ArrayList<>(catalog.namesIn(country.toUpperCase(Locale.ROOT)));
      Collections.sort(expected);
      Collections.sort(actual);
      assertEquals(country, expected, actual);
    }
  }

  private Run runMain(List<String> jvmFlags) throws IOException, InterruptedException {
    Path home = createTempDir();
    Path stdout = home.resolve("stdout.txt");
    Path stderr = home.resolve("stderr.txt");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(GettingStarted.class.getName());
    command.add(home.resolve("catalog").toString());
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    if (process.waitFor(5, TimeUnit.MINUTES) == false) {
      process.destroyForcibly().waitFor();
      fail("the example did not finish within 5 minutes: " + command);
    }
    return new Run(
        command,
        process.exitValue(),
        Files.readString(stdout, StandardCharsets.UTF_8),
        Files.readString(stderr, StandardCharsets.UTF_8));
  }

  private static final class Run {
    final List<String> command;
    final int exitCode;
    final String stdout;
    final String stderr;

    Run(List<String> command, int exitCode, String stdout, String stderr) {
      this.command = command;
      this.exitCode = exitCode;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s exited with %d%n--- stdout%n%s--- stderr%n%s",
          String.join(" ", command),
          exitCode,
          stdout,
          stderr);
    }
  }
}
