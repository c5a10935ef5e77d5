/**
 * Adapters that drive Elasticsearch's own classes in the benchmarks, compiled against
 * Elasticsearch.
 */
package dev.spindle.bench.peer.elasticsearch;
