package dev.spindle.bench.measure;

/** What one operation cost on average over a trial: storage reads, and the process's CPU in µs. */
public record IoCost(
    double bytesRead,
    double majorFaults,
    double deviceReads,
    double readQueueDepth,
    double cpuMicros) {}
