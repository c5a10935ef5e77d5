package dev.spindle.bench.jvm;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestChildJvm extends LuceneTestCase {

  /** What the test's child serves. */
  public interface Echo extends Closeable {
    String echo(String text, int times) throws IOException;

    List<Integer> lengths(List<String> texts) throws IOException;

    void fail() throws IOException;

    void exit(int status) throws IOException;
  }

  /** The child's service: prints as an engine might, echoes, fails or exits on request. */
  public static final class EchoService implements Echo {
    private final String prefix;

    public EchoService(String prefix) {
      this.prefix = prefix;
      System.out.println("printed by the child, not a reply");
    }

    @Override
    public String echo(String text, int times) {
      return prefix + text.repeat(times);
    }

    @Override
    public List<Integer> lengths(List<String> texts) {
      return texts.stream().map(String::length).toList();
    }

    @Override
    public void fail() {
      throw new IllegalStateException("asked to fail");
    }

    @Override
    public void exit(int status) {
      System.exit(status);
    }

    @Override
    public void close() {}
  }

  private static Echo start(String prefix) throws IOException {
    return ChildJvm.builder("the echo JVM")
        .jvmOptions(List.of("-Xmx32m"))
        .start(Echo.class, EchoService.class, prefix);
  }

  public void testCallsAndTheirValuesCrossTheProcess() throws IOException {
    String prefix = "p" + random().nextInt(1000) + ":";
    try (Echo child = start(prefix)) {
      assertEquals(prefix + "abab", child.echo("ab", 2));
      assertEquals(prefix + "ünï\tcode", child.echo("ünï\tcode", 1));
      assertEquals(List.of(0, 3, 1), child.lengths(List.of("", "abc", "\n")));
      assertEquals("the echo JVM", child.toString());
    }
  }

  public void testFailureIsNamedAndEndsTheChild() throws IOException {
    try (Echo child = start("")) {
      IOException failed = expectThrows(IOException.class, child::fail);
      assertTrue(failed.getMessage(), failed.getMessage().contains("asked to fail"));
      // The child exits after a failure: the next call fails, and so does closing it.
      IOException next = expectThrows(IOException.class, () -> child.echo("x", 1));
      assertTrue(next.getMessage(), next.getMessage().contains("exited with code 1"));
      expectThrows(IOException.class, child::close);
    }
  }

  public void testExitCodeIsNamed() throws IOException {
    Echo child = start("");
    int status = 3 + random().nextInt(100);
    IOException e = expectThrows(IOException.class, () -> child.exit(status));
    assertTrue(e.getMessage(), e.getMessage().contains("exited with code " + status));
    expectThrows(IOException.class, child::close);
  }

  public void testFailureToCreateTheServiceIsNamed() {
    IOException e =
        expectThrows(
            IOException.class,
            () ->
                ChildJvm.builder("the JVM of a missing class")
                    .jvmOptions(List.of("-Xmx32m"))
                    .start(Echo.class, "dev.spindle.bench.jvm.NoSuchService", ""));
    assertTrue(e.getMessage(), e.getMessage().contains("NoSuchService"));
  }
}
