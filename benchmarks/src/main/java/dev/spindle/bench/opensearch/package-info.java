/** The benchmark of opensearch-plugin: store types on a real node in a child JVM. */
package dev.spindle.bench.opensearch;
