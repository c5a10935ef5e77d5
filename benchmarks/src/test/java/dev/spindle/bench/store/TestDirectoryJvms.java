package dev.spindle.bench.store;

import dev.spindle.bench.jvm.PeerClasspath;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestDirectoryJvms extends LuceneTestCase {

  /** What the test's JVMs serve. */
  public interface Describe extends Closeable {
    /** The JVM's process id, its class path, its setup and {@code kind}, space-separated. */
    String describe(DirectoryKind kind) throws IOException;
  }

  /** Answers with what tells the JVMs apart. */
  public static final class DescribeService implements Describe {
    private final String setup;

    public DescribeService(String setup) {
      this.setup = setup;
    }

    @Override
    public String describe(DirectoryKind kind) {
      return ProcessHandle.current().pid()
          + " "
          + System.getProperty("java.class.path")
          + " "
          + setup
          + " "
          + kind.name();
    }

    @Override
    public void close() {}
  }

  private static DirectoryJvms<Describe> start(List<DirectoryKind> kinds, boolean perKind)
      throws IOException {
    return DirectoryJvms.start(
        kinds,
        perKind,
        Describe.class,
        DescribeService.class,
        group -> "setup-of-" + group.size(),
        builder -> builder.jvmOptions(List.of("-Xmx32m")));
  }

  public void testSpindlesAndLucenesKindsShareOneJvm() throws IOException {
    List<DirectoryKind> kinds =
        List.of(DirectoryKind.HYBRID, DirectoryKind.MMAP, DirectoryKind.NIOFS);
    try (DirectoryJvms<Describe> jvms = start(kinds, false)) {
      Set<String> pids = new HashSet<>();
      for (DirectoryKind kind : kinds) {
        String[] answer = jvms.on(kind).describe(kind).split(" ");
        assertEquals("setup-of-3", answer[2]);
        assertEquals(kind.name(), answer[3]);
        pids.add(answer[0]);
      }
      assertEquals(pids.toString(), 1, pids.size());
      assertFalse(pids.contains(Long.toString(ProcessHandle.current().pid())));
      assertEquals(-1, jvms.peakBytes());
      assertEquals(1, jvms.all().size());
    }
  }

  public void testJvmPerKind() throws IOException {
    try (DirectoryJvms<Describe> jvms =
        start(List.of(DirectoryKind.HYBRID, DirectoryKind.MMAP), true)) {
      String hybrid = jvms.on(DirectoryKind.HYBRID).describe(DirectoryKind.HYBRID).split(" ")[0];
      String mmap = jvms.on(DirectoryKind.MMAP).describe(DirectoryKind.MMAP).split(" ")[0];
      assertNotEquals(hybrid, mmap);
      // Each kind keeps its JVM from one call to the next.
      assertEquals(
          hybrid, jvms.on(DirectoryKind.HYBRID).describe(DirectoryKind.HYBRID).split(" ")[0]);
    }
  }

  public void testKindOutsideTheSetIsRefused() throws IOException {
    try (DirectoryJvms<Describe> jvms = start(List.of(DirectoryKind.HYBRID), false)) {
      IllegalArgumentException e =
          expectThrows(IllegalArgumentException.class, () -> jvms.on(DirectoryKind.NIOFS));
      assertTrue(e.getMessage(), e.getMessage().contains(DirectoryKind.NIOFS.toString()));
    }
  }

  /** A peer's kind runs in a JVM of its own, on the peer's class path and nowhere else. */
  public void testPeerRunsOnItsClassPath() throws IOException {
    Path root = createTempDir();
    Path jar = Files.createDirectories(root.resolve("elasticsearch")).resolve("peer.jar");
    writePathingJar(jar);
    String previous = System.getProperty(PeerClasspath.ROOT_PROPERTY);
    System.setProperty(PeerClasspath.ROOT_PROPERTY, root.toString());
    try (DirectoryJvms<Describe> jvms =
        start(List.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS), false)) {
      DirectoryKind peerKind = DirectoryKind.ELASTICSEARCH_HYBRIDFS;
      String[] peer = jvms.on(peerKind).describe(peerKind).split(" ");
      String[] own = jvms.on(DirectoryKind.HYBRID).describe(DirectoryKind.HYBRID).split(" ");
      assertNotEquals(own[0], peer[0]);
      assertEquals(jar.toAbsolutePath().toString(), peer[1]);
      assertEquals(System.getProperty("java.class.path"), own[1]);
      assertEquals("setup-of-1", peer[2]);
    } finally {
      if (previous == null) {
        System.clearProperty(PeerClasspath.ROOT_PROPERTY);
      } else {
        System.setProperty(PeerClasspath.ROOT_PROPERTY, previous);
      }
    }
  }

  /** A jar that holds nothing but a manifest whose class path is this JVM's. */
  private static void writePathingJar(Path jar) throws IOException {
    StringBuilder classPath = new StringBuilder();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classPath.append(Path.of(entry).toUri()).append(' ');
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath.toString().trim());
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
      // The manifest is the whole jar.
    }
  }
}
