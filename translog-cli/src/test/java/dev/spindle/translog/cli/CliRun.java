package dev.spindle.translog.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One run of {@code spindle-translog} in this JVM: its exit code and what it printed. */
final class CliRun {

  private static final String LOCK_FILE = "translog.lock";

  final int exitCode;
  final String out;
  final String err;
  private final String command;

  private CliRun(String command, int exitCode, String out, String err) {
    this.command = command;
    this.exitCode = exitCode;
    this.out = out;
    this.err = err;
  }

  static CliRun run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TranslogCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new CliRun(String.join(" ", args), code, out.toString(), err.toString());
  }

  /** The lines of standard output that start with {@code prefix}. */
  List<String> lines(String prefix) {
    List<String> lines = new ArrayList<>();
    for (String line : out.split("\n", -1)) {
      if (line.startsWith(prefix)) {
        lines.add(line);
      }
    }
    return lines;
  }

  /** For assertion messages: the command and everything it printed. */
  @Override
  public String toString() {
    return "spindle-translog "
        + command
        + " exited "
        + exitCode
        + "\n--- out\n"
        + out
        + "--- err\n"
        + err;
  }

  /**
   * Every regular file in {@code directory} and its bytes: what no command but {@code truncate
   * --yes} may change. The lock file is not opened, since closing any descriptor of it would
   * release the lock a translog of this JVM may hold on it; it always is empty, and stands in the
   * map with as many zeros as it has bytes.
   */
  static Map<String, byte[]> files(Path directory) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path file : stream) {
        if (Files.isRegularFile(file)) {
          String name = file.getFileName().toString();
          files.put(
              name,
              name.equals(LOCK_FILE)
                  ? new byte[Math.toIntExact(Files.size(file))]
                  : Files.readAllBytes(file));
        }
      }
    }
    return files;
  }
}
