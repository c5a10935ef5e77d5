package dev.spindle.bench.harness;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A JVM that this one starts to measure something apart: a peer on its own class path ({@link
 * PeerClasspath}), a contender alone with the JIT, or a trial inside a memory cgroup. Its standard
 * error goes to this JVM's, for progress; its standard input and output carry a line protocol.
 *
 * <p>The protocol is request and response: {@link #request} writes one line and reads one back. The
 * child answers through {@link #serve}, which turns a failure into an {@code error} line that
 * {@link #request} throws here, so a peer that fails says why in the report's run. A child that
 * prints a stream of results instead is read through {@link #output}.
 *
 * <p>A child never outlives this JVM, nor its time limit: a shutdown hook and a watchdog stop it.
 * {@link #close} stops it at once; call {@link #finish} first to let it end by itself.
 *
 * <p>Not thread-safe.
 */
public final class ChildJvm implements Closeable {

  /** What a child does with one request line; returns the response line. */
  @FunctionalInterface
  public interface Handler {
    String handle(String request) throws Exception;
  }

  static final String ERROR = "error ";

  private final String name;
  private final Process process;
  private final BufferedReader output;
  private final Writer input;
  private final Thread stopOnExit;
  private final Thread watchdog;

  private ChildJvm(String name, Process process, Duration timeout) {
    this.name = name;
    this.process = process;
    this.output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.input =
        new BufferedWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.stopOnExit = new Thread(process::destroyForcibly);
    Runtime.getRuntime().addShutdownHook(stopOnExit);
    this.watchdog =
        new Thread(
            () -> {
              try {
                if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) == false) {
                  Progress.log("%s: still running after %s, stopped", name, timeout);
                  process.destroyForcibly();
                }
              } catch (InterruptedException closed) {
                // close() stops the process itself.
              }
            },
            name + " watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  /** Starts building a child that runs {@code mainClass}. */
  public static Builder builder(String mainClass) {
    return new Builder(mainClass);
  }

  /**
   * The options this JVM was started with (bin/bench's heap, native access, the vector module), for
   * a child that should differ from it only in what it runs.
   */
  public static List<String> thisJvmOptions() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments();
  }

  /**
   * Sends {@code line} and returns the child's response line.
   *
   * @throws IOException with the child's message if it answered with an error, or if it exited
   */
  public String request(String line) throws IOException {
    input.write(line);
    input.write('\n');
    input.flush();
    String response = output.readLine();
    if (response == null) {
      throw new IOException(name + " " + describeExit(waitFor(process)) + " on: " + line);
    }
    if (response.startsWith(ERROR)) {
      throw new IOException(
          name + " failed on " + line + ": " + response.substring(ERROR.length()));
    }
    return response;
  }

  /** The exit code, and what killed the child when a signal did. */
  private static String describeExit(int exit) {
    return "exited with code "
        + exit
        + (exit == 137
            ? " (killed by SIGKILL: in a memory cgroup, by the cgroup's OOM killer, because the"
                + " JVM's own memory left no page cache to reclaim under the cap)"
            : "");
  }

  /** The child's standard output, for a child that streams its results rather than answering. */
  public BufferedReader output() {
    return output;
  }

  /** Closes the child's standard input and waits until it exits. Returns its exit code. */
  public int finish() throws IOException {
    input.close();
    return waitFor(process);
  }

  /**
   * Lets the child end by itself ({@link #finish}), then {@link #close}s it.
   *
   * @throws IOException if it exited with a code other than 0
   */
  public void shutdown() throws IOException {
    try {
      int exit = finish();
      if (exit != 0) {
        throw new IOException(name + " " + describeExit(exit));
      }
    } finally {
      close();
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      waitFor(process);
    } catch (IOException interrupted) {
      // The process is gone or going; the interrupt flag is set again.
    }
    watchdog.interrupt();
    try {
      watchdog.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException shuttingDown) {
      // The hook runs anyway.
    }
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * The child's end of the protocol: reads request lines from standard input until it closes, and
   * writes the handler's response to each on standard output. A request that fails is answered with
   * an error line naming the failure, its stack goes to standard error, and the child exits.
   */
  public static void serve(Handler handler) throws IOException {
    PrintStream out = protocolOutput();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String request = in.readLine(); request != null; request = in.readLine()) {
      try {
        out.println(handler.handle(request));
      } catch (Exception e) {
        out.println(ERROR + e.toString().replace('\n', ' '));
        throw new IOException("failed on " + request, e);
      }
    }
  }

  /**
   * The child's end of its standard output, for the protocol alone: what anything else prints to
   * {@code System.out} from now on, such as an engine's console logger, goes to standard error, so
   * that it cannot be taken for a response. Call it first thing in the child's main; later calls
   * return the same stream.
   */
  public static synchronized PrintStream protocolOutput() {
    if (protocol == null) {
      protocol = new PrintStream(System.out, true, StandardCharsets.UTF_8);
      System.setOut(System.err);
    }
    return protocol;
  }

  /** The child's own standard output, once {@link #protocolOutput} took it. */
  private static PrintStream protocol;

  private static int waitFor(Process process) throws IOException {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a child JVM", e);
    }
  }

  /** How to start a child. Not thread-safe. */
  public static final class Builder {
    private final String mainClass;
    private String name;
    private String classpath = System.getProperty("java.class.path");
    private List<String> jvmOptions = thisJvmOptions();
    private final List<String> args = new ArrayList<>();
    private UnaryOperator<List<String>> wrapper = UnaryOperator.identity();
    private Duration timeout = Duration.ofMinutes(30);

    private Builder(String mainClass) {
      this.mainClass = mainClass;
      this.name = mainClass.substring(mainClass.lastIndexOf('.') + 1);
    }

    /** Names the child in progress lines and errors; the main class's simple name by default. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** The class path; this JVM's by default. */
    public Builder classpath(String classpath) {
      this.classpath = classpath;
      return this;
    }

    /** The class path of a peer. */
    public Builder classpath(PeerClasspath peer) {
      return classpath(peer.toClasspath());
    }

    /** The JVM's options; {@link #thisJvmOptions} by default. */
    public Builder jvmOptions(List<String> options) {
      this.jvmOptions = List.copyOf(options);
      return this;
    }

    /** Arguments of the main method, after those given before. */
    public Builder args(String... more) {
      args.addAll(List.of(more));
      return this;
    }

    /**
     * Rewrites the command before it runs, e.g. {@code MemoryCgroup::commandInside} to start the
     * child inside a cgroup.
     */
    public Builder wrapper(UnaryOperator<List<String>> wrapper) {
      this.wrapper = wrapper;
      return this;
    }

    /** How long the child may run before it is stopped; 30 minutes by default. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Starts the child. */
    public ChildJvm start() throws IOException {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions);
      command.add("-cp");
      command.add(classpath);
      command.add(mainClass);
      command.addAll(args);
      Process process =
          new ProcessBuilder(wrapper.apply(command))
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      return new ChildJvm(name, process, timeout);
    }
  }
}
