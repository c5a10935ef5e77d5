/**
 * {@code spindle-translog}, the command-line tool for {@code dev.spindle.translog} directories:
 * {@code inspect}, {@code verify}, {@code dump} and {@code truncate}. {@link
 * dev.spindle.translog.cli.TranslogCli} parses the command line with picocli and dispatches to one
 * command class per subcommand; each opens a {@link dev.spindle.translog.inspect.TranslogInspector}
 * on the directory, which takes the translog's lock, and reads through it. {@code verify} and
 * {@code truncate} print the {@link dev.spindle.translog.inspect.RecoveryPreview} that the
 * translog's own recovery planner makes ({@code PlanPrinter}), so what they report is what {@code
 * Translog.open} does; only {@code truncate --yes} writes, through {@link
 * dev.spindle.translog.inspect.TranslogInspector#repair}, after its backup. {@code ExitCodes} lists
 * the exit codes.
 */
package dev.spindle.translog.cli;
