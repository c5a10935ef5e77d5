/**
 * The one trial runner. A {@link dev.spindle.bench.jvm.ChildJvm} runs {@link
 * dev.spindle.bench.jvm.TrialServer} on a class path of its own, optionally in a {@link
 * dev.spindle.bench.jvm.MemoryCgroup}, and calls the service it creates through a proxy of the
 * service's interface, in JSON. A peer (an engine whose classes or Lucene differ from Spindle's) is
 * a module under {@code benchmarks/peers/<peer>/} with one adapter class compiled against the
 * engine; {@link dev.spindle.bench.jvm.PeerClasspath} lists its jars and swaps its Lucene.
 */
package dev.spindle.bench.jvm;
