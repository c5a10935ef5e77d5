package dev.spindle.bench.store;

import dev.spindle.bench.measure.IoCost;

/**
 * What the measured part of a trial achieved: its rate, the storage reads of one operation, and the
 * CPU it cost.
 *
 * @param rate operations per second (documents or ids for a batch)
 * @param io what one operation read from storage, on average
 * @param cpuMicros the measuring JVM's CPU time per operation (user and system, every thread), in
 *     microseconds: where it times the rate near the machine's cores, the CPU and not the device is
 *     the limit
 */
public record Outcome(double rate, IoCost io, double cpuMicros) {}
