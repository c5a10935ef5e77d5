/**
 * The one trial runner: contenders in a JVM of their own.
 *
 * <p>A {@link dev.spindle.bench.jvm.ChildJvm} starts {@link dev.spindle.bench.jvm.TrialServer} on a
 * class path (this JVM's, a peer's, the OpenSearch node's), with options of its own and, where a
 * cap is set, inside a {@link dev.spindle.bench.jvm.MemoryCgroup}. The server creates a service
 * from its setup record; the benchmark calls it through a proxy of the service's interface, one
 * JSON line per call and per reply (Jackson), so every result crosses as the record it is. A child
 * that fails says why; one that dies is named with its exit code, and as killed by its cgroup's OOM
 * killer when it was.
 *
 * <h2>Peers</h2>
 *
 * <p>Where an alternative's classes or its Lucene differ from Spindle's (OpenSearch's and
 * Elasticsearch's translogs and directories), it is a peer: it runs in a child JVM on a class path
 * of its own, never on the benchmarks'. A peer is a module under {@code benchmarks/peers/<peer>/}
 * (listed there and in {@code bin/bench}) with one adapter class compiled against the engine,
 * holding only the code that needs the engine's types; packaging copies it, the engine's jars and
 * the benchmark driver into {@code benchmarks/target/peers/<peer>/}. {@link
 * dev.spindle.bench.jvm.PeerClasspath} lists those jars, swaps the engine's Lucene for this build's
 * where the peer reads this build's index, and adds the protocol's jars.
 */
package dev.spindle.bench.jvm;
