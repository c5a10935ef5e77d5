package dev.spindle.bench.harness;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestChildJvm extends LuceneTestCase {

  /**
   * The child: takes its output for the protocol as a peer's main does, prints something as an
   * engine might, then echoes each request, and fails on "fail".
   */
  public static void main(String[] args) throws IOException {
    ChildJvm.protocolOutput();
    System.out.println("printed by the child, not a response");
    ChildJvm.serve(
        request -> {
          if (request.equals("fail")) {
            throw new IllegalStateException("asked to fail");
          }
          return args[0] + " " + request;
        });
  }

  public void testRequestsAndFailures() throws IOException {
    try (ChildJvm child =
        ChildJvm.builder(TestChildJvm.class.getName())
            .jvmOptions(List.of("-Xmx32m"))
            .args("echo")
            .start()) {
      assertEquals("echo one", child.request("one"));
      assertEquals("echo two words", child.request("two words"));
      IOException failed = expectThrows(IOException.class, () -> child.request("fail"));
      assertTrue(failed.getMessage(), failed.getMessage().contains("asked to fail"));
      // The child exits after a failure: the next request fails, on the closed pipe or on the end
      // of the child's output.
      expectThrows(IOException.class, () -> child.request("three"));
    }
  }

  public void testFinishWaitsForTheChildToEnd() throws IOException {
    try (ChildJvm child =
        ChildJvm.builder(TestChildJvm.class.getName())
            .jvmOptions(List.of("-Xmx32m"))
            .args("echo")
            .start()) {
      assertEquals("echo x", child.request("x"));
      assertEquals(0, child.finish());
    }
  }
}
