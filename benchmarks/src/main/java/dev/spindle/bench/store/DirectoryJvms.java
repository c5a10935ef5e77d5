package dev.spindle.bench.store;

import dev.spindle.bench.jvm.ChildJvm;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.lucene.util.IOUtils;

/**
 * The child JVMs that run a benchmark's trials against a set of {@link DirectoryKind}s, kept for a
 * whole measurement: one for Spindle's and Lucene's directories and one for each peer's (on the
 * peer's class path), or one for each kind, so that the JIT compiles the reading code for one
 * directory only, as in an application. Every JVM serves the same service; trials go to the JVM
 * that opens the contender, so that contenders of different JVMs take turns within each round. All
 * JVMs get the same options, and each its own memory cgroup where a cap is set.
 *
 * <p>Not thread-safe.
 *
 * @param <S> the service the JVMs serve
 */
final class DirectoryJvms<S extends Closeable> implements Closeable {

  private final Map<DirectoryKind, S> services = new EnumMap<>(DirectoryKind.class);
  private final List<S> jvms = new ArrayList<>();

  private DirectoryJvms() {}

  /**
   * Starts the JVMs.
   *
   * @param jvmPerKind a JVM for each kind, else one for the kinds that need no peer's class path
   * @param setup the service's setup for the kinds one JVM opens
   * @param options the options of every JVM (heap, cap, timeout)
   */
  static <S extends Closeable> DirectoryJvms<S> start(
      List<DirectoryKind> kinds,
      boolean jvmPerKind,
      Class<S> service,
      Class<? extends S> implementation,
      Function<List<DirectoryKind>, Object> setup,
      UnaryOperator<ChildJvm.Builder> options)
      throws IOException {
    Map<Object, List<DirectoryKind>> groups = new LinkedHashMap<>();
    for (DirectoryKind kind : kinds) {
      Object key = jvmPerKind ? kind : kind.peer();
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(kind);
    }
    DirectoryJvms<S> started = new DirectoryJvms<>();
    boolean success = false;
    try {
      for (List<DirectoryKind> group : groups.values()) {
        String name = implementation.getSimpleName() + " of " + group;
        ChildJvm.Builder builder = options.apply(ChildJvm.builder(name));
        S jvm =
            builder
                .classpath(group.get(0).classpath())
                .start(service, implementation, setup.apply(group));
        started.jvms.add(jvm);
        group.forEach(kind -> started.services.put(kind, jvm));
      }
      success = true;
      return started;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(started);
      }
    }
  }

  /** The service in the JVM that opens {@code kind}. */
  S on(DirectoryKind kind) {
    return Optional.ofNullable(services.get(kind))
        .orElseThrow(
            () -> new IllegalArgumentException(kind + " is not one of " + services.keySet()));
  }

  /**
   * Empties the page cache of every JVM's cgroup: a page that one JVM cached would otherwise be a
   * free hit for the next, whichever cgroup it is charged to.
   */
  void reclaimPageCaches() throws IOException {
    for (S jvm : jvms) {
      ChildJvm.of(jvm).reclaimPageCache();
    }
  }

  /** The most memory any of the cgroups used, or -1 if unknown or there are none. */
  long peakBytes() {
    return jvms.stream().mapToLong(jvm -> ChildJvm.of(jvm).peakBytes()).max().orElse(-1);
  }

  /** Every JVM's service, in the order they started. */
  List<S> all() {
    return List.copyOf(jvms);
  }

  /** The JVMs' cgroups. */
  String cgroups() {
    return jvms.stream().map(jvm -> ChildJvm.of(jvm).cgroup()).collect(Collectors.joining(", "));
  }

  /** Lets every JVM end by itself, and removes its cgroup. */
  @Override
  public void close() throws IOException {
    IOUtils.close(jvms);
  }
}
