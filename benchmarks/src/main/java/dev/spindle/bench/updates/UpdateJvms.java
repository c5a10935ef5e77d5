package dev.spindle.bench.updates;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ChildJvm;
import dev.spindle.bench.harness.IoCost;
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
 * The JVMs that run the update trials, kept for a whole case (hot or starved): one for Spindle's
 * and Lucene's directories, one for each peer's on the peer's class path. Starved, each runs in a
 * memory cgroup of its own with the same cap, and before every trial the page cache of every one of
 * these cgroups is reclaimed: a page that one JVM cached would otherwise be a free hit for the
 * next, whichever cgroup it is charged to.
 *
 * <p>Trials go one at a time, to whichever JVM opens the contender, so contenders of different JVMs
 * take turns within each round. Not thread-safe.
 */
final class UpdateJvms implements Closeable {

  private final Map<DirectoryKind, ChildJvm> jvmOf = new EnumMap<>(DirectoryKind.class);
  private final List<ChildJvm> jvms = new ArrayList<>();
  private final List<MemoryCgroup> cgroups = new ArrayList<>();

  private UpdateJvms() {}

  /**
   * Starts the JVMs for {@code kinds}.
   *
   * @param capBytes the memory cap of each JVM's cgroup, or empty for no cgroup (hot)
   * @param jvmOptions the options of every JVM (heap, collector)
   * @param args the arguments of {@link UpdateTrials}
   * @throws MemoryCgroup.UnavailableException if a cap is asked for and no cgroup can be made
   */
  static UpdateJvms start(
      List<DirectoryKind> kinds, Optional<Long> capBytes, List<String> jvmOptions, String... args)
      throws IOException {
    UpdateJvms started = new UpdateJvms();
    boolean success = false;
    try {
      int number = 0;
      for (List<DirectoryKind> group : DirectoryKind.byJvm(kinds)) {
        Optional<PeerClasspath> peer = group.get(0).peerClasspath();
        ChildJvm.Builder builder =
            ChildJvm.builder(UpdateTrials.class.getName())
                .name("update trials of " + group)
                .jvmOptions(jvmOptions)
                .args(args)
                .timeout(Duration.ofHours(6));
        peer.ifPresent(builder::classpath);
        if (capBytes.isPresent()) {
          MemoryCgroup cgroup =
              MemoryCgroup.create("spindle-bench-updates-" + number++, capBytes.get());
          started.cgroups.add(cgroup);
          builder.wrapper(cgroup::commandInside);
          Progress.log("updates: %s in %s", group, cgroup);
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

  /** Runs one trial of {@code kind}, after emptying every cgroup's page cache. */
  UpdateLoad.Trial trial(DirectoryKind kind, long warmupMillis, long measureMillis)
      throws IOException {
    for (MemoryCgroup cgroup : cgroups) {
      cgroup.reclaimPageCache();
    }
    String[] fields =
        jvmOf
            .get(kind)
            .request("trial " + kind.name() + " " + warmupMillis + " " + measureMillis)
            .split(" ");
    return new UpdateLoad.Trial(
        Double.parseDouble(fields[0]),
        new IoCost(
            Double.parseDouble(fields[1]),
            Double.parseDouble(fields[2]),
            Double.parseDouble(fields[3]),
            Double.parseDouble(fields[4])));
  }

  /** The most memory any of the cgroups used, or -1 if unknown or there are none. */
  long peakBytes() {
    long peak = -1;
    for (MemoryCgroup cgroup : cgroups) {
      peak = Math.max(peak, cgroup.peakBytes());
    }
    return peak;
  }

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
