package dev.spindle.bench.measure;

/** What one operation cost in storage reads, on average over a trial. */
public record IoCost(
    double bytesRead, double majorFaults, double deviceReads, double readQueueDepth) {}
