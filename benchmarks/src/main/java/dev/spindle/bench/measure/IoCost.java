package dev.spindle.bench.measure;

/**
 * What one operation cost in storage reads, on average over a trial: how much a directory reads
 * around what it needs shows here before it shows in the rate.
 *
 * @param bytesRead bytes read from storage per operation, read-ahead included
 * @param majorFaults page faults per operation that waited for storage
 * @param deviceReads read requests per operation that the block device completed; NaN if unknown
 * @param readQueueDepth the average number of reads in flight at the device over the trial, the
 *     queue depth the workload achieved; NaN if unknown
 */
public record IoCost(
    double bytesRead, double majorFaults, double deviceReads, double readQueueDepth) {}
