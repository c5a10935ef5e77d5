/**
 * Control of the memory a measurement runs with, on Linux: {@link
 * dev.spindle.bench.memory.MemoryCgroup} caps a child process and the page cache it reads, and
 * {@link dev.spindle.bench.memory.PageCache} empties the machine's page cache before a starved
 * trial. Both need root; where they cannot work they say why, and the benchmark reports the case as
 * not measured.
 */
package dev.spindle.bench.memory;
