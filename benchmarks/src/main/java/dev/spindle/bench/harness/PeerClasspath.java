package dev.spindle.bench.harness;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The class path of a peer: an engine that a benchmark compares Spindle with, such as OpenSearch or
 * Elasticsearch, run in a JVM of its own ({@link ChildJvm}) because its classes and its Lucene
 * differ from Spindle's. A peer's module under {@code benchmarks/peers/<peer>} copies, when it is
 * packaged, its adapter, the engine's runtime jars (its own Lucene among them) and the benchmark
 * driver into {@code benchmarks/target/peers/<peer>/}; this class lists them.
 *
 * <p>{@link #withLucene} swaps the engine's Lucene for another version's jars of the same modules,
 * from {@code peers/lucene-<version>/}: a peer that reads an index written by Spindle's Lucene runs
 * on that Lucene, as the engine would after an upgrade.
 *
 * <p>Immutable.
 */
public final class PeerClasspath {

  /** Overrides where the peers are found: the folder that holds one folder per peer. */
  public static final String ROOT_PROPERTY = "spindle.bench.peers";

  private static final Pattern LUCENE_JAR =
      Pattern.compile("lucene-([a-z0-9-]+?)-(\\d[^-]*)\\.jar");

  private final Path root;
  private final String peer;
  private final List<Path> jars;

  private PeerClasspath(Path root, String peer, List<Path> jars) {
    this.root = root;
    this.peer = peer;
    this.jars = List.copyOf(jars);
  }

  /**
   * The jars of {@code peer} as its module copied them, sorted by name.
   *
   * @throws NoSuchFileException if the peer was not built, saying how to build it
   */
  public static PeerClasspath of(String peer) throws IOException {
    return of(root(), peer);
  }

  /** The jars of {@code peer} in the folder of peers {@code root}. */
  static PeerClasspath of(Path root, String peer) throws IOException {
    Path folder = root.resolve(peer);
    List<Path> jars = jarsIn(folder);
    if (jars.isEmpty()) {
      throw new NoSuchFileException(
          folder.toString(),
          null,
          "no jars of the peer "
              + peer
              + ": build them with `mvn -pl benchmarks/peers/"
              + peer
              + " -am package` (bin/bench does)");
    }
    return new PeerClasspath(root, peer, jars);
  }

  /**
   * This class path with each of the peer's Lucene jars replaced by the same module at {@code
   * version}.
   *
   * @throws NoSuchFileException if a module the peer ships has no jar at {@code version}
   */
  public PeerClasspath withLucene(String version) throws IOException {
    Path swap = root.resolve("lucene-" + version);
    List<Path> swapped = new ArrayList<>();
    for (Path jar : jars) {
      Matcher lucene = LUCENE_JAR.matcher(jar.getFileName().toString());
      if (lucene.matches()) {
        Path replacement = swap.resolve("lucene-" + lucene.group(1) + "-" + version + ".jar");
        if (Files.isRegularFile(replacement) == false) {
          throw new NoSuchFileException(
              replacement.toString(),
              null,
              peer
                  + " ships "
                  + jar.getFileName()
                  + ", and Lucene "
                  + version
                  + " has no such jar");
        }
        swapped.add(replacement);
      } else {
        swapped.add(jar);
      }
    }
    return new PeerClasspath(root, peer, swapped);
  }

  /** The peer's name, the name of its folder. */
  public String peer() {
    return peer;
  }

  /** The jars, in class path order. */
  public List<Path> jars() {
    return jars;
  }

  /** The version of the {@code lucene-core} jar on this class path, if there is one. */
  public Optional<String> luceneVersion() {
    return versionOf("lucene-core");
  }

  /**
   * The version of the jar of {@code artifactId} on this class path, such as {@code 3.9.0} for
   * {@code opensearch}, if there is one.
   */
  public Optional<String> versionOf(String artifactId) {
    Pattern name = Pattern.compile(Pattern.quote(artifactId) + "-(\\d[^-]*)\\.jar");
    for (Path jar : jars) {
      Matcher matcher = name.matcher(jar.getFileName().toString());
      if (matcher.matches()) {
        return Optional.of(matcher.group(1));
      }
    }
    return Optional.empty();
  }

  /** The value of a {@code -cp} option. */
  public String toClasspath() {
    List<String> paths = new ArrayList<>();
    for (Path jar : jars) {
      paths.add(jar.toAbsolutePath().toString());
    }
    return String.join(File.pathSeparator, paths);
  }

  @Override
  public String toString() {
    return peer + luceneVersion().map(v -> " on Lucene " + v).orElse("");
  }

  /**
   * The folder of the peers: the {@value #ROOT_PROPERTY} system property if set, else {@code
   * peers/} beside the jar or classes folder this class was loaded from ({@code
   * benchmarks/target/}).
   */
  public static Path root() throws IOException {
    String configured = System.getProperty(ROOT_PROPERTY);
    if (configured != null) {
      return Path.of(configured);
    }
    CodeSource source = PeerClasspath.class.getProtectionDomain().getCodeSource();
    if (source == null) {
      throw new IOException(
          "cannot tell where the benchmarks were loaded from: set -D" + ROOT_PROPERTY);
    }
    try {
      return Path.of(source.getLocation().toURI()).toAbsolutePath().getParent().resolve("peers");
    } catch (URISyntaxException e) {
      throw new IOException("cannot read " + source.getLocation() + ": set -D" + ROOT_PROPERTY, e);
    }
  }

  private static List<Path> jarsIn(Path folder) throws IOException {
    List<Path> jars = new ArrayList<>();
    if (Files.isDirectory(folder) == false) {
      return jars;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.jar")) {
      files.forEach(jars::add);
    }
    jars.sort(null);
    return jars;
  }
}
