package dev.spindle.bench.jvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestPeerClasspath extends LuceneTestCase {

  public void testListsThePeersJars() throws IOException {
    Path root = peers();
    PeerClasspath peer = PeerClasspath.of(root, "engine");
    assertEquals("engine", peer.peer());
    assertEquals(
        List.of("engine-3.9.0.jar", "lucene-analysis-common-10.5.1.jar", "lucene-core-10.5.1.jar"),
        names(peer));
    assertEquals("10.5.1", peer.luceneVersion().orElseThrow());
    assertEquals("3.9.0", peer.versionOf("engine").orElseThrow());
    assertTrue(peer.versionOf("missing").isEmpty());
  }

  public void testSwapsEveryLuceneJarAndNothingElse() throws IOException {
    Path root = peers();
    Path swap = Files.createDirectories(root.resolve("lucene-10.6.0"));
    Files.createFile(swap.resolve("lucene-core-10.6.0.jar"));
    Files.createFile(swap.resolve("lucene-analysis-common-10.6.0.jar"));
    PeerClasspath swapped = PeerClasspath.of(root, "engine").withLucene("10.6.0");
    assertEquals(
        List.of("engine-3.9.0.jar", "lucene-analysis-common-10.6.0.jar", "lucene-core-10.6.0.jar"),
        names(swapped));
    assertEquals(swap.resolve("lucene-core-10.6.0.jar"), swapped.jars().get(2));
    assertEquals("10.6.0", swapped.luceneVersion().orElseThrow());
  }

  public void testMissingSwapJarIsNamed() throws IOException {
    Path root = peers();
    Path swap = Files.createDirectories(root.resolve("lucene-10.6.0"));
    Files.createFile(swap.resolve("lucene-core-10.6.0.jar"));
    NoSuchFileException e =
        expectThrows(
            NoSuchFileException.class, () -> PeerClasspath.of(root, "engine").withLucene("10.6.0"));
    assertTrue(e.getMessage(), e.getMessage().contains("lucene-analysis-common-10.5.1.jar"));
  }

  public void testUnbuiltPeerSaysHowToBuildIt() throws IOException {
    Path root = peers();
    NoSuchFileException e =
        expectThrows(NoSuchFileException.class, () -> PeerClasspath.of(root, "other"));
    assertTrue(e.getMessage(), e.getMessage().contains("benchmarks/peers/other"));
  }

  private static Path peers() throws IOException {
    Path root = createTempDir("peers");
    Path engine = Files.createDirectories(root.resolve("engine"));
    for (String jar :
        List.of(
            "lucene-core-10.5.1.jar", "engine-3.9.0.jar", "lucene-analysis-common-10.5.1.jar")) {
      Files.createFile(engine.resolve(jar));
    }
    Files.createFile(engine.resolve("README.txt"));
    return root;
  }

  private static List<String> names(PeerClasspath peer) {
    return peer.jars().stream().map(jar -> jar.getFileName().toString()).toList();
  }
}
