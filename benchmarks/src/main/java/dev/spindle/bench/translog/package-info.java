/** The benchmark of translog: durable appends, appends that do not wait, and recovery. */
package dev.spindle.bench.translog;
