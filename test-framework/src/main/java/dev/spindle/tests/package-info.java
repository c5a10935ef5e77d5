/**
 * Randomized-testing support for Spindle components, built on Lucene's test framework: factories of
 * randomly configured Spindle components ({@link dev.spindle.tests.RandomHybridDirectory}), a file
 * system that simulates power loss and injects I/O faults ({@link
 * dev.spindle.tests.PowerLossFileSystem}), and a crash suite any write-ahead log can plug into
 * ({@link dev.spindle.tests.BaseWriteAheadLogTestCase}).
 */
package dev.spindle.tests;
