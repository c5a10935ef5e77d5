package dev.spindle.bench.directory;

import dev.spindle.bench.harness.ChildJvm;
import dev.spindle.bench.harness.PeerClasspath;
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

  private static final List<String> SMALL_JVM = List.of("-Xmx32m");

  /** The child: answers each request with its process id, its class path and the request. */
  public static void main(String[] args) throws IOException {
    ChildJvm.protocolOutput();
    ChildJvm.serve(
        request ->
            ProcessHandle.current().pid()
                + " "
                + System.getProperty("java.class.path")
                + " "
                + args[0]
                + " "
                + request);
  }

  public void testSpindlesAndLucenesKindsShareOneJvm() throws IOException {
    List<DirectoryKind> kinds =
        List.of(DirectoryKind.HYBRID, DirectoryKind.MMAP, DirectoryKind.NIOFS);
    try (DirectoryJvms jvms =
        DirectoryJvms.builder(TestDirectoryJvms.class.getName(), kinds)
            .jvmOptions(SMALL_JVM)
            .args("arg")
            .start()) {
      Set<String> pids = new HashSet<>();
      for (DirectoryKind kind : kinds) {
        String[] answer = jvms.request(kind, "trial " + kind.name()).split(" ");
        assertEquals("arg", answer[2]);
        assertEquals(kind.name(), answer[4]);
        pids.add(answer[0]);
      }
      assertEquals(pids.toString(), 1, pids.size());
      assertFalse(pids.contains(Long.toString(ProcessHandle.current().pid())));
      assertEquals(-1, jvms.peakBytes());
    }
  }

  public void testJvmPerKind() throws IOException {
    List<DirectoryKind> kinds = List.of(DirectoryKind.HYBRID, DirectoryKind.MMAP);
    try (DirectoryJvms jvms =
        DirectoryJvms.builder(TestDirectoryJvms.class.getName(), kinds)
            .jvmOptions(SMALL_JVM)
            .args("arg")
            .jvmPerKind()
            .start()) {
      String hybrid = jvms.request(DirectoryKind.HYBRID, "x").split(" ")[0];
      String mmap = jvms.request(DirectoryKind.MMAP, "x").split(" ")[0];
      assertNotEquals(hybrid, mmap);
      // Each kind keeps its JVM from one request to the next.
      assertEquals(hybrid, jvms.request(DirectoryKind.HYBRID, "y").split(" ")[0]);
    }
  }

  public void testKindOutsideTheSetIsRefused() throws IOException {
    try (DirectoryJvms jvms =
        DirectoryJvms.builder(TestDirectoryJvms.class.getName(), List.of(DirectoryKind.HYBRID))
            .jvmOptions(SMALL_JVM)
            .args("arg")
            .start()) {
      IllegalArgumentException e =
          expectThrows(
              IllegalArgumentException.class, () -> jvms.request(DirectoryKind.NIOFS, "x"));
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
    try (DirectoryJvms jvms =
        DirectoryJvms.builder(
                TestDirectoryJvms.class.getName(),
                List.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS))
            .jvmOptions(SMALL_JVM)
            .args("arg")
            .start()) {
      String[] peer = jvms.request(DirectoryKind.ELASTICSEARCH_HYBRIDFS, "x").split(" ");
      String[] own = jvms.request(DirectoryKind.HYBRID, "x").split(" ");
      assertNotEquals(own[0], peer[0]);
      assertEquals(jar.toAbsolutePath().toString(), peer[1]);
      assertEquals(System.getProperty("java.class.path"), own[1]);
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
