/**
 * The benchmark of translog: durable appends, appends that do not wait, and recovery, against
 * OpenSearch's and Elasticsearch's own translogs (through {@link
 * dev.spindle.bench.translog.EngineTranslog} adapters) and a global-lock log.
 */
package dev.spindle.bench.translog;
