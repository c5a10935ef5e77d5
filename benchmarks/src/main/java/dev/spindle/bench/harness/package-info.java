/**
 * The measuring and reporting tools every benchmark shares, independent of what is measured.
 *
 * <p>{@link dev.spindle.bench.harness.RoundRobin} runs one trial per contender per round, in a new
 * order each round, and collects the rates in {@link dev.spindle.bench.harness.Measurements}, which
 * gives medians and per-round ratios. {@link dev.spindle.bench.harness.ComparisonTables} and {@link
 * dev.spindle.bench.harness.Ratio} render them as the report's markdown, through {@link
 * dev.spindle.bench.harness.MarkdownTable}. {@link dev.spindle.bench.harness.TimedLoad} runs an
 * operation on several threads for a fixed time, and {@link
 * dev.spindle.bench.harness.LatencyHistogram} keeps the latencies of operations for percentiles.
 * {@link dev.spindle.bench.harness.ProcessIo}, {@link dev.spindle.bench.harness.IoCost} and {@link
 * dev.spindle.bench.harness.BlockDeviceStat} count storage reads, device reads and flushes, and the
 * queue depth a workload reached. {@link dev.spindle.bench.harness.Progress} writes progress lines
 * to standard error, which keeps standard output for the report.
 *
 * <h2>Peers: contenders in a JVM of their own</h2>
 *
 * <p>The alternatives a benchmark compares Spindle with are the real ones. Where an alternative's
 * classes or its Lucene differ from Spindle's (OpenSearch's and Elasticsearch's translogs and
 * directories, an OpenSearch node with a plugin), it is a <em>peer</em>: it runs in a JVM of its
 * own, on a class path of its own, and never on the benchmarks' class path. Three pieces make one:
 *
 * <ol>
 *   <li><b>An adapter module</b> under {@code benchmarks/peers/<peer>/}, a child of {@code
 *       benchmarks/peers/pom.xml}. It depends on the engine's artifacts from Maven Central, sets
 *       {@code lucene.version} to the engine's own Lucene (so that the build's does not replace
 *       part of it), and holds the small classes that drive the engine, compiled against it: they
 *       implement an interface of the benchmark (such as {@code BenchmarkedLog} or {@code
 *       PeerDirectory}) and are loaded by name. When the module is packaged, the parent pom copies
 *       the adapter, the engine's runtime jars and the benchmark driver (this module's own classes,
 *       without their dependencies) into {@code benchmarks/target/peers/<peer>/}. The benchmarks
 *       module copies this build's Lucene, every module the peers ship, into {@code
 *       benchmarks/target/peers/lucene-<version>/}. {@code bin/bench} builds the peer modules.
 *   <li><b>{@link dev.spindle.bench.harness.PeerClasspath}</b> lists a peer's jars; {@code
 *       withLucene(version)} swaps the engine's Lucene jars for the same modules at another
 *       version, for a peer that reads an index this build's Lucene wrote.
 *   <li><b>{@link dev.spindle.bench.harness.ChildJvm}</b> starts a JVM on that class path (with
 *       this JVM's options, or others; inside a memory cgroup through a command wrapper) and talks
 *       to it one line at a time: {@code request} here, {@code serve} in the child, where a failure
 *       comes back as an error that names it. The child is stopped when this JVM exits or its time
 *       runs out.
 * </ol>
 *
 * <p>A new peer is one more module under {@code benchmarks/peers/}, listed there and in {@code
 * bin/bench}, and a main class that serves requests: the driver classes of this module are on its
 * class path, so it can reuse a benchmark's workload as it is, as the translog, get-and-search,
 * id-lookup, indexing and update benchmarks do; {@code dev.spindle.bench.directory.DirectoryJvms}
 * keeps such JVMs for the directory benchmarks. The OpenSearch node of the {@code opensearch-store}
 * benchmark is a {@link dev.spindle.bench.harness.ChildJvm} too, on the class path the {@code
 * opensearch-plugin} build writes.
 */
package dev.spindle.bench.harness;
