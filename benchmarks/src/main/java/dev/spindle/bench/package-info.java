/**
 * Side-by-side benchmarks of Spindle, run by {@code bin/bench}: shared harness in {@code measure},
 * {@code jvm}, {@code report} and {@code corpus}; one package per measured module besides.
 */
package dev.spindle.bench;
