package dev.spindle.bench.directory;

import dev.spindle.bench.harness.ChildJvm;
import dev.spindle.bench.harness.PeerClasspath;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.memory.MemoryCgroup;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.util.IOUtils;

/**
 * The JVMs that run a benchmark's trials against a set of {@link DirectoryKind}s, kept for a whole
 * measurement: one for Spindle's and Lucene's directories, on this JVM's class path, or one for
 * each of them ({@link Builder#jvmPerKind}), and one for each peer's, on the peer's class path with
 * this build's Lucene ({@link DirectoryKind#peerClasspath}). Each runs the same main class, which
 * serves one request per trial through {@link ChildJvm#serve}; a request names the contender, so
 * the main class opens any kind. Optionally each JVM runs in a memory cgroup of its own, with the
 * same cap.
 *
 * <p>Trials go one at a time, to the JVM that opens the contender, so that contenders of different
 * JVMs take turns within each round of {@link dev.spindle.bench.harness.RoundRobin}. Every JVM of a
 * set has the same options, so that the contenders differ in their directory and, for a peer, in
 * having a JVM to themselves.
 *
 * <p>Not thread-safe.
 */
public final class DirectoryJvms implements Closeable {

  private final Map<DirectoryKind, ChildJvm> jvmOf = new EnumMap<>(DirectoryKind.class);
  private final List<ChildJvm> jvms = new ArrayList<>();
  private final List<MemoryCgroup> cgroups = new ArrayList<>();

  private DirectoryJvms() {}

  /** How to start the JVMs of a set. Not thread-safe. */
  public static final class Builder {
    private final String mainClass;
    private final List<DirectoryKind> kinds;
    private List<String> jvmOptions = ChildJvm.thisJvmOptions();
    private Optional<Long> capBytes = Optional.empty();
    private String[] args = {};
    private Duration timeout = Duration.ofHours(1);
    private boolean jvmPerKind;

    private Builder(String mainClass, List<DirectoryKind> kinds) {
      this.mainClass = mainClass;
      this.kinds = List.copyOf(kinds);
    }

    /** The options of every JVM; this JVM's by default. */
    public Builder jvmOptions(List<String> options) {
      this.jvmOptions = List.copyOf(options);
      return this;
    }

    /** Runs each JVM in a memory cgroup of its own capped at {@code bytes}; none by default. */
    public Builder capBytes(long bytes) {
      this.capBytes = Optional.of(bytes);
      return this;
    }

    /** The arguments of the main class, the same for every JVM. */
    public Builder args(String... args) {
      this.args = args.clone();
      return this;
    }

    /**
     * Gives every kind a JVM of its own, so that the JIT compiles the reading code for one
     * directory only, as in an application; by default Spindle's and Lucene's kinds share one.
     */
    public Builder jvmPerKind() {
      this.jvmPerKind = true;
      return this;
    }

    /** How long each JVM may run; an hour by default. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /**
     * Starts the JVMs.
     *
     * @throws MemoryCgroup.UnavailableException if a cap is asked for and no cgroup can be made
     * @throws java.nio.file.NoSuchFileException if a peer among the kinds was not built
     */
    public DirectoryJvms start() throws IOException {
      DirectoryJvms started = new DirectoryJvms();
      boolean success = false;
      try {
        List<List<DirectoryKind>> groups =
            jvmPerKind ? kinds.stream().map(List::of).toList() : DirectoryKind.byJvm(kinds);
        for (List<DirectoryKind> group : groups) {
          ChildJvm.Builder builder =
              ChildJvm.builder(mainClass)
                  .name(mainClass.substring(mainClass.lastIndexOf('.') + 1) + " of " + group)
                  .jvmOptions(jvmOptions)
                  .args(args)
                  .timeout(timeout);
          Optional<PeerClasspath> peer = group.get(0).peerClasspath();
          peer.ifPresent(builder::classpath);
          if (capBytes.isPresent()) {
            MemoryCgroup cgroup =
                MemoryCgroup.create("spindle-bench-jvm-" + started.cgroups.size(), capBytes.get());
            started.cgroups.add(cgroup);
            builder.wrapper(cgroup::commandInside);
            Progress.log("%s in %s", group, cgroup);
          }
          ChildJvm jvm = builder.start();
          started.jvms.add(jvm);
          for (DirectoryKind kind : group) {
            started.jvmOf.put(kind, jvm);
          }
        }
        success = true;
        return started;
      } finally {
        if (success == false) {
          IOUtils.closeWhileHandlingException(started);
        }
      }
    }
  }

  /** Starts building the JVMs that run {@code mainClass} for {@code kinds}. */
  public static Builder builder(String mainClass, List<DirectoryKind> kinds) {
    return new Builder(mainClass, kinds);
  }

  /**
   * Sends {@code request} to the JVM that opens {@code kind} and returns its answer.
   *
   * @throws IOException with the JVM's message if the trial failed
   */
  public String request(DirectoryKind kind, String request) throws IOException {
    ChildJvm jvm = jvmOf.get(kind);
    if (jvm == null) {
      throw new IllegalArgumentException(kind + " is not one of " + jvmOf.keySet());
    }
    return jvm.request(request);
  }

  /**
   * Empties the page cache of every JVM's cgroup: a page that one JVM cached would otherwise be a
   * free hit for the next, whichever cgroup it is charged to. Does nothing without cgroups.
   */
  public void reclaimPageCaches() throws IOException {
    for (MemoryCgroup cgroup : cgroups) {
      cgroup.reclaimPageCache();
    }
  }

  /** The most memory any of the cgroups used, or -1 if unknown or there are none. */
  public long peakBytes() {
    long peak = -1;
    for (MemoryCgroup cgroup : cgroups) {
      peak = Math.max(peak, cgroup.peakBytes());
    }
    return peak;
  }

  /** Lets every JVM end by itself, then removes the cgroups. */
  @Override
  public void close() throws IOException {
    List<Closeable> toClose = new ArrayList<>();
    for (ChildJvm jvm : jvms) {
      toClose.add(jvm::shutdown);
    }
    // The cgroups once their processes have exited.
    toClose.addAll(cgroups);
    IOUtils.close(toClose);
  }
}
