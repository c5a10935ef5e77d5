package dev.spindle.bench.store;

import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.Trials;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.lucene.util.IOUtils;

/**
 * The child JVMs that run a benchmark's trials, kept for a whole measurement: one per {@link
 * DirectoryKind#jvmGroup}, or one per kind, so that the JIT compiles the reading code for one
 * directory only, as in an application. All serve the same service with the same options, each in a
 * memory cgroup of its own where a cap is set; contenders of different JVMs take turns within each
 * round. Not thread-safe.
 *
 * @param <S> the service the JVMs serve
 */
public final class DirectoryJvms<S extends Closeable> implements Closeable {

  /** One trial of {@code kind} in the JVM that opens it. */
  @FunctionalInterface
  public interface Trial<S, R> {
    R run(S service, DirectoryKind kind) throws IOException;
  }

  private final List<DirectoryKind> kinds;
  private final Map<DirectoryKind, S> services = new EnumMap<>(DirectoryKind.class);
  private final List<S> jvms = new ArrayList<>();

  private DirectoryJvms(List<DirectoryKind> kinds) {
    this.kinds = List.copyOf(kinds);
  }

  /**
   * Starts a JVM per kind, or per group of kinds, serving {@code setup} of the kinds it opens with
   * {@code options} (heap, cap, timeout).
   */
  public static <S extends Closeable> DirectoryJvms<S> start(
      List<DirectoryKind> kinds,
      boolean jvmPerKind,
      Class<S> service,
      Class<? extends S> implementation,
      Function<List<DirectoryKind>, Object> setup,
      UnaryOperator<ChildJvm.Builder> options)
      throws IOException {
    Map<Object, List<DirectoryKind>> groups = new LinkedHashMap<>();
    kinds.forEach(
        k -> groups.computeIfAbsent(jvmPerKind ? k : k.jvmGroup(), g -> new ArrayList<>()).add(k));
    DirectoryJvms<S> started = new DirectoryJvms<>(kinds);
    boolean success = false;
    try {
      for (List<DirectoryKind> group : groups.values()) {
        S jvm =
            options
                .apply(ChildJvm.builder(implementation.getSimpleName() + " of " + group))
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

  public S on(DirectoryKind kind) {
    S service = services.get(kind);
    if (service == null) {
      throw new IllegalArgumentException(kind + " is not one of " + kinds);
    }
    return service;
  }

  /**
   * Runs a trial per kind per round ({@link RoundRobin}), each after every JVM's cgroup emptied its
   * page cache: a page one JVM cached would be a free hit for the next.
   */
  public <R> Trials<DirectoryKind, R> run(
      String label, Rounds rounds, Trial<S, R> trial, ToDoubleFunction<R> rate) throws IOException {
    return RoundRobin.run(
        label,
        kinds,
        rounds,
        kind -> {
          reclaimPageCache();
          return trial.run(on(kind), kind);
        },
        rate);
  }

  Measurements<DirectoryKind> measure(String label, Rounds rounds, Trial<S, Double> trial)
      throws IOException {
    return run(label, rounds, trial, Double::doubleValue).metric(Double::doubleValue);
  }

  public void reclaimPageCache() throws IOException {
    for (S jvm : jvms) {
      ChildJvm.of(jvm).reclaimPageCache();
    }
  }

  /** Every JVM's service, in the order they started. */
  public List<S> all() {
    return List.copyOf(jvms);
  }

  /** The most memory any of the cgroups used, or -1 if unknown or there are none. */
  public long peakBytes() {
    return jvms.stream().mapToLong(jvm -> ChildJvm.of(jvm).peakBytes()).max().orElse(-1);
  }

  public String cgroups() {
    return jvms.stream().map(jvm -> ChildJvm.of(jvm).cgroup()).collect(Collectors.joining(", "));
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(jvms);
  }
}
