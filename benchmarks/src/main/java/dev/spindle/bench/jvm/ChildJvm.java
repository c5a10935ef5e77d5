package dev.spindle.bench.jvm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spindle.bench.measure.Progress;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A JVM this one starts to run trials apart, serving an interface through a proxy. Thread-safe. */
public final class ChildJvm implements InvocationHandler {
  /** The protocol's mapper; also for the data files a benchmark hands its children. */
  public static final ObjectMapper JSON = new ObjectMapper();

  record Call(String method, List<JsonNode> args) {}

  record Reply(JsonNode value, String error) {}

  private final String name;
  private final Process process;
  private final MemoryCgroup cgroup;
  private final BufferedReader output;
  private final PrintStream input;
  private final Thread stopOnExit;
  private boolean closed;

  private ChildJvm(String name, Process process, MemoryCgroup cgroup, Duration timeout) {
    this.name = name;
    this.process = process;
    this.cgroup = cgroup;
    this.output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.input = new PrintStream(process.getOutputStream(), false, StandardCharsets.UTF_8);
    this.stopOnExit = new Thread(process::destroyForcibly);
    Runtime.getRuntime().addShutdownHook(stopOnExit);
    process
        .onExit()
        .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .exceptionally(
            timedOut -> {
              Progress.log("%s: still running after %s, stopped", name, timeout);
              process.destroyForcibly();
              return process;
            });
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The JVM behind a proxy that {@link Builder#start} returned. */
  public static ChildJvm of(Object service) {
    return (ChildJvm) Proxy.getInvocationHandler(service);
  }

  /** A cgroup JVM's options: heap resident from the start, so later rounds keep the cache. */
  public static List<String> measuringOptions(int heapMegabytes) {
    List<String> options = new ArrayList<>(options(heapMegabytes));
    options.addAll(List.of("-XX:+AlwaysPreTouch", "-XX:+UseSerialGC"));
    return options;
  }

  /** A JVM's options with a fixed heap: native access (mappings) and the vector module. */
  public static List<String> options(int heapMegabytes) {
    return List.of(
        "--enable-native-access=ALL-UNNAMED",
        "--add-modules",
        "jdk.incubator.vector",
        "-Xms" + heapMegabytes + "m",
        "-Xmx" + heapMegabytes + "m");
  }

  /** Empties the page cache of the child's cgroup, if it has one. */
  public void reclaimPageCache() throws IOException {
    if (cgroup != null) {
      cgroup.reclaimPageCache();
    }
  }

  /** The most memory the child's cgroup used, or -1 if unknown or there is none. */
  public long peakBytes() {
    return cgroup == null ? -1 : cgroup.peakBytes();
  }

  /** The memory the child holds itself, besides the page cache, or -1 if unknown or no cgroup. */
  public long anonymousBytes() {
    return cgroup == null ? -1 : cgroup.anonymousBytes();
  }

  public String cgroup() {
    return String.valueOf(cgroup == null ? "none" : cgroup);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws IOException {
    return switch (method.getName()) {
      case "close" -> {
        close();
        yield null;
      }
      case "toString" -> name;
      case "hashCode" -> System.identityHashCode(proxy);
      case "equals" -> proxy == args[0];
      default -> {
        List<JsonNode> values =
            args == null
                ? List.of()
                : Arrays.stream(args).<JsonNode>map(JSON::valueToTree).toList();
        JsonNode value = exchange(new Call(method.getName(), values), method.getName());
        yield method.getReturnType() == void.class
            ? null
            : JSON.convertValue(value, JSON.constructType(method.getGenericReturnType()));
      }
    };
  }

  private synchronized JsonNode exchange(Object request, Object what) throws IOException {
    input.println(JSON.writeValueAsString(request));
    input.flush();
    String response = input.checkError() ? null : output.readLine();
    if (response == null) {
      throw new IOException(name + " " + exit() + " during " + what);
    }
    Reply reply = JSON.readValue(response, Reply.class);
    if (reply.error() != null) {
      throw new IOException(name + " failed in " + what + ": " + reply.error());
    }
    return reply.value();
  }

  /** Lets the child end by itself, then removes its cgroup; throws if it did not exit cleanly. */
  private synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      input.close();
      if (waitFor() != 0) {
        throw new IOException(name + " " + exit());
      }
    } finally {
      process.destroyForcibly();
      waitFor();
      try {
        Runtime.getRuntime().removeShutdownHook(stopOnExit);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs anyway.
      }
      if (cgroup != null) {
        cgroup.close();
      }
    }
  }

  /** How the child ended: its exit code, and what killed it where that is known. */
  private String exit() {
    int code = waitFor();
    if (cgroup != null && cgroup.oomKills() > 0) {
      return "exited with code "
          + code
          + ", killed by the OOM killer of its memory cgroup "
          + cgroup
          + ": the JVM's own memory left no page cache to reclaim under the cap";
    }
    return "exited with code " + code + (code == 137 ? " (killed by SIGKILL)" : "");
  }

  private int waitFor() {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return -1;
    }
  }

  /** How to start a child. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private String classpath = System.getProperty("java.class.path");
    private List<String> jvmOptions = ManagementFactory.getRuntimeMXBean().getInputArguments();
    private long capBytes = -1;
    private Duration timeout = Duration.ofHours(1);

    private Builder(String name) {
      this.name = name;
    }

    public Builder classpath(String classpath) {
      this.classpath = classpath;
      return this;
    }

    /** The JVM's options; this JVM's by default (bin/bench's heap, native access, vectors). */
    public Builder jvmOptions(List<String> options) {
      this.jvmOptions = List.copyOf(options);
      return this;
    }

    /** Runs the child in a memory cgroup of its own capped at {@code bytes}; none if negative. */
    public Builder capBytes(long bytes) {
      this.capBytes = bytes;
      return this;
    }

    /** How long the child may run before it is stopped; an hour by default. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** {@link #start(Class, String, Object)} of a class this JVM can load. */
    public <S extends Closeable> S start(
        Class<S> service, Class<? extends S> implementation, Object setup) throws IOException {
      return start(service, implementation.getName(), setup);
    }

    /** Starts the child: it creates {@code implementation} from {@code setup}, serves calls. */
    public <S extends Closeable> S start(Class<S> service, String implementation, Object setup)
        throws IOException {
      MemoryCgroup cgroup = capBytes < 0 ? null : MemoryCgroup.create(capBytes);
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions);
      command.addAll(List.of("-cp", classpath, TrialServer.class.getName(), implementation));
      ChildJvm jvm = null;
      try {
        if (cgroup != null) {
          Progress.log("%s in %s", name, cgroup);
          command = cgroup.commandInside(command);
        }
        Process process =
            new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        jvm = new ChildJvm(name, process, cgroup, timeout);
        jvm.exchange(setup, "creating " + implementation);
        return service.cast(
            Proxy.newProxyInstance(service.getClassLoader(), new Class<?>[] {service}, jvm));
      } catch (IOException | RuntimeException e) {
        try {
          if (jvm != null) {
            jvm.close();
          } else if (cgroup != null) {
            cgroup.close();
          }
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }
  }
}
