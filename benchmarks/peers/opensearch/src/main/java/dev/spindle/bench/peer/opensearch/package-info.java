/** Adapters that drive OpenSearch's own classes in the benchmarks, compiled against OpenSearch. */
package dev.spindle.bench.peer.opensearch;
