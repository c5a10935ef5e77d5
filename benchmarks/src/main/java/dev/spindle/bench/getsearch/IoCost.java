package dev.spindle.bench.getsearch;

import java.util.Arrays;
import java.util.List;

/**
 * What one operation cost in storage reads, on average over a trial: how much a directory reads
 * around what it needs shows here before it shows in the rate.
 *
 * @param bytesRead bytes read from storage per operation, read-ahead included
 * @param majorFaults page faults per operation that waited for storage
 * @param deviceReads read requests per operation that the block device completed; NaN where they
 *     could not be counted
 */
record IoCost(double bytesRead, double majorFaults, double deviceReads) {

  /** The cost per operation of {@code used}, spread over {@code operations}. */
  static IoCost perOperation(ProcessIo used, double operations) {
    double count = Math.max(1, operations);
    double deviceReads = used.deviceReads() < 0 ? Double.NaN : used.deviceReads() / count;
    return new IoCost(used.bytesRead() / count, used.majorFaults() / count, deviceReads);
  }

  /** The median of each field on its own over {@code costs}, which must not be empty. */
  static IoCost median(List<IoCost> costs) {
    return new IoCost(
        median(costs.stream().mapToDouble(IoCost::bytesRead).toArray()),
        median(costs.stream().mapToDouble(IoCost::majorFaults).toArray()),
        median(costs.stream().mapToDouble(IoCost::deviceReads).toArray()));
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
