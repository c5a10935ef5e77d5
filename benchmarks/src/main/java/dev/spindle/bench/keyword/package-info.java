/** The benchmark of keyword-field: keyword-heavy indexing, each setup in a JVM of its own. */
package dev.spindle.bench.keyword;
