package dev.spindle.bench.report;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium, run headless on local files: no sandbox (tests run as root in CI), no GPU, no
 * network of its own, a fresh profile per run.
 */
final class HeadlessChromium {

  private static final List<String> NAMES = List.of("chromium", "chromium-browser");
  private static final long TIMEOUT_SECONDS = 120;

  private final Path binary;
  private final Path workDir;

  private HeadlessChromium(Path binary, Path workDir) {
    this.binary = binary;
    this.workDir = workDir;
  }

  /** The browser on the {@code PATH}, if there is one; its profiles go under {@code workDir}. */
  static Optional<HeadlessChromium> find(Path workDir) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      for (String name : NAMES) {
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(new HeadlessChromium(candidate, workDir));
        }
      }
    }
    return Optional.empty();
  }

  /** Loads {@code page}, runs its scripts, and returns the DOM as it is then. */
  String dumpDom(Path page) throws IOException, InterruptedException {
    return run(List.of("--virtual-time-budget=10000", "--dump-dom", page.toUri().toString()));
  }

  /** Loads {@code page} in a window of the given size and saves what it shows as a PNG. */
  void screenshot(Path page, Path png, int width, int height)
      throws IOException, InterruptedException {
    run(
        List.of(
            "--virtual-time-budget=10000",
            "--hide-scrollbars",
            "--window-size=" + width + "," + height,
            "--screenshot=" + png.toAbsolutePath(),
            page.toUri().toString()));
  }

  private String run(List<String> arguments) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(workDir, "chromium-profile");
    Path stdout = Files.createTempFile(workDir, "chromium", ".out");
    Path stderr = Files.createTempFile(workDir, "chromium", ".err");
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(
        List.of(
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--user-data-dir=" + profile));
    command.addAll(arguments);
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    if (process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) == false) {
      process.destroyForcibly().waitFor();
      throw new IOException("chromium did not finish in " + TIMEOUT_SECONDS + " s: " + command);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          "chromium exited with "
              + process.exitValue()
              + ": "
              + command
              + "\n"
              + Files.readString(stderr, StandardCharsets.UTF_8));
    }
    return Files.readString(stdout, StandardCharsets.UTF_8);
  }
}
