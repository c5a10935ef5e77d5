/**
 * Random {@link dev.spindle.index.CompoundCapMergePolicy} configurations for randomized test
 * suites. Built with merge-policy's tests, which use them, and published as that module's {@code
 * tests} jar, which {@code spindle-test-framework} depends on: a user of the test framework gets
 * this package with it.
 */
package dev.spindle.tests.index;
