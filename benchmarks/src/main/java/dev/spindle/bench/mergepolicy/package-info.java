/** The benchmark of merge-policy: compound files capped by size against the tiered policy. */
package dev.spindle.bench.mergepolicy;
