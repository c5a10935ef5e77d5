package dev.spindle.translog.cli;

import dev.spindle.translog.TranslogLockedException;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * A command on one translog directory: opens a {@link TranslogInspector} on it (which takes the
 * directory's lock), runs, and turns the failures every command shares into their exit codes and
 * one line on standard error.
 */
abstract class DirectoryCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Parameters(
      index = "0",
      paramLabel = "DIR",
      description = "the translog directory (holding translog.ckp and translog-<g>.tlog files)")
  Path directory;

  @Override
  public final Integer call() {
    // Absolute, so that every file named in messages and in a backup's note can be found again.
    try (TranslogInspector inspector =
        TranslogInspector.open(directory.toAbsolutePath().normalize())) {
      return run(inspector);
    } catch (TranslogLockedException e) {
      return fail(ExitCodes.LOCKED, e.getMessage());
    } catch (NoSuchFileException e) {
      String reason = e.getReason() == null ? "no such file or directory" : e.getReason();
      return fail(ExitCodes.IO_ERROR, e.getFile() + ": " + reason);
    } catch (IOException e) {
      return fail(ExitCodes.IO_ERROR, String.valueOf(e.getMessage()));
    }
  }

  /** Does the command's work on the locked directory; returns the exit code. */
  abstract int run(TranslogInspector inspector) throws IOException;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** Prints {@code message} as an error of this command on standard error; returns {@code code}. */
  int fail(int code, String message) {
    error(message);
    return code;
  }

  void error(String message) {
    err().println("spindle-translog " + spec.name() + ": error: " + message);
  }
}
