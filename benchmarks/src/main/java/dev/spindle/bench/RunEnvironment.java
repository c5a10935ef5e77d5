package dev.spindle.bench;

import java.lang.management.ManagementFactory;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.apache.lucene.util.Version;

/**
 * Where and how a report was measured: numbers from different machines, JDKs or modes are not
 * comparable, so every report starts with these.
 *
 * @param date when the run started, in UTC
 * @param jdk the JDK's version, vendor and VM
 * @param jvmOptions the options the JVM was started with
 * @param lucene the Lucene version on the class path
 * @param cores processors available to the JVM
 * @param kernel the operating system, its version and architecture
 * @param loadAverage the system load average over the last minute when the run started: other work
 *     on the machine is the usual reason for a wide spread between rounds
 * @param mode quick or full
 */
record RunEnvironment(
    String date,
    String jdk,
    String jvmOptions,
    String lucene,
    int cores,
    String kernel,
    double loadAverage,
    Mode mode) {

  static RunEnvironment capture(Mode mode) {
    return new RunEnvironment(
        ZonedDateTime.now(ZoneOffset.UTC)
            .truncatedTo(ChronoUnit.SECONDS)
            .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
        Runtime.version()
            + " ("
            + System.getProperty("java.vendor")
            + ", "
            + System.getProperty("java.vm.name")
            + ")",
        String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()),
        Version.LATEST.toString(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " ("
            + System.getProperty("os.arch")
            + ")",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        mode);
  }

  String toMarkdown() {
    return String.format(
        Locale.ROOT,
        """
        - **Date:** %s
        - **Mode:** %s
        - **JDK:** %s
        - **JVM options:** `%s`
        - **Lucene:** %s
        - **Cores:** %d
        - **Kernel:** %s
        - **Load average at start:** %.2f
        """,
        date,
        mode.label(),
        jdk,
        jvmOptions,
        lucene,
        cores,
        kernel,
        loadAverage);
  }
}
