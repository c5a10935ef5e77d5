package dev.spindle.bench.jvm;

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

/** The jars of a peer, whose classes and Lucene differ from Spindle's. Immutable. */
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

  /** The jars of {@code peer} as its module copied them, sorted by name. */
  public static PeerClasspath of(String peer) throws IOException {
    return of(root(), peer);
  }

  static PeerClasspath of(Path root, String peer) throws IOException {
    List<Path> jars = jarsIn(root.resolve(peer));
    if (jars.isEmpty()) {
      String build = "mvn -pl benchmarks/peers/" + peer + " -am package";
      throw new NoSuchFileException(
          root.resolve(peer).toString(),
          null,
          "no jars of the peer " + peer + ": build them with `" + build + "` (bin/bench does)");
    }
    return new PeerClasspath(root, peer, jars);
  }

  /** This class path with the peer's Lucene jars swapped for those of {@code version}. */
  public PeerClasspath withLucene(String version) throws IOException {
    List<Path> swapped = new ArrayList<>();
    for (Path jar : jars) {
      Matcher lucene = LUCENE_JAR.matcher(jar.getFileName().toString());
      Path replacement =
          lucene.matches()
              ? root.resolve("lucene-" + version)
                  .resolve("lucene-" + lucene.group(1) + "-" + version + ".jar")
              : jar;
      if (Files.isRegularFile(replacement) == false && replacement != jar) {
        throw new NoSuchFileException(
            replacement.toString(),
            null,
            peer + " ships " + jar.getFileName() + ", and Lucene " + version + " has no such jar");
      }
      swapped.add(replacement);
    }
    return new PeerClasspath(root, peer, swapped);
  }

  public String peer() {
    return peer;
  }

  public List<Path> jars() {
    return jars;
  }

  /** The version of the {@code lucene-core} jar on this class path, if there is one. */
  public Optional<String> luceneVersion() {
    return versionOf("lucene-core");
  }

  /** The version of the jar of {@code artifactId}, such as {@code 3.9.0} for opensearch. */
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

  /** The peer and the versions it runs, e.g. {@code opensearch 3.9.0 (Lucene 10.5.1)}. */
  public String describe() {
    return peer
        + " "
        + versionOf(peer).orElse("?")
        + " (Lucene "
        + luceneVersion().orElse("?")
        + ")";
  }

  /** The value of a {@code -cp} option: these jars, then the protocol's. */
  public String toClasspath() throws IOException {
    List<Path> all = new ArrayList<>(jars);
    all.addAll(jarsIn(root.resolve("protocol")));
    return String.join(
        File.pathSeparator, all.stream().map(p -> p.toAbsolutePath().toString()).toList());
  }

  /** The jars a child JVM's {@link TrialServer} needs besides its own classes. */
  public static List<Path> protocolJars() throws IOException {
    return jarsIn(root().resolve("protocol"));
  }

  @Override
  public String toString() {
    return peer + luceneVersion().map(v -> " on Lucene " + v).orElse("");
  }

  /** The peers' folder: {@value #ROOT_PROPERTY}, else {@code peers/} beside this jar. */
  public static Path root() throws IOException {
    String configured = System.getProperty(ROOT_PROPERTY);
    if (configured != null) {
      return Path.of(configured);
    }
    CodeSource source = PeerClasspath.class.getProtectionDomain().getCodeSource();
    try {
      return Path.of(source.getLocation().toURI()).toAbsolutePath().getParent().resolve("peers");
    } catch (URISyntaxException | RuntimeException e) {
      throw new IOException("cannot tell where the benchmarks are: set -D" + ROOT_PROPERTY, e);
    }
  }

  private static List<Path> jarsIn(Path folder) throws IOException {
    List<Path> jars = new ArrayList<>();
    if (Files.isDirectory(folder)) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.jar")) {
        files.forEach(jars::add);
      }
    }
    jars.sort(null);
    return jars;
  }
}
