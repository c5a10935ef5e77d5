/**
 * The benchmark of opensearch-plugin: store types on a real node, which runs in a child JVM on the
 * node's class path ({@code NodeTrials}); the benchmark's JVM sees only {@link
 * dev.spindle.bench.opensearch.NodeService}.
 */
package dev.spindle.bench.opensearch;
