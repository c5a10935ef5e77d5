/** The trial runner: child JVMs serving a proxied interface in JSON, memory cgroups, peers. */
package dev.spindle.bench.jvm;
