/**
 * Randomized-testing support for Spindle components, built on Lucene's test framework: factories of
 * randomly configured Spindle components for users' and Spindle's own suites.
 */
package dev.spindle.tests;
