package dev.spindle.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of a translog's files and the file-system steps whose order the format depends on:
 * creating the directory, preparing a generation file, replacing a file atomically, and making
 * directory entries durable. All I/O goes through {@link java.nio.file} paths, so a test file
 * system sees every step.
 */
final class TranslogFiles {

  /** The live checkpoint, rewritten in place now and then. */
  static final String LIVE_CHECKPOINT = "translog.ckp";

  /** The file whose lock keeps a second translog instance out of the directory. */
  static final String LOCK_FILE = "translog.lock";

  static final String TEMPORARY_SUFFIX = ".tmp";

  /** What the name of every file of a translog starts with. */
  private static final String NAME_PREFIX = "translog";

  /** Generation files are prepared to a multiple of this, the page size of every common system. */
  static final int PAGE_SIZE = 4096;

  private static final Pattern GENERATION = Pattern.compile("translog-([1-9][0-9]{0,17})\\.tlog");
  private static final Pattern SEALED = Pattern.compile("translog-([1-9][0-9]{0,17})\\.ckp");

  /** Zeros written into prepared generation files, a chunk per write call. */
  private static final int ZERO_CHUNK = 1 << 20;

  private TranslogFiles() {}

  /** {@code translog-<generation>.tlog}. */
  static String generationFileName(long generation) {
    return "translog-" + generation + ".tlog";
  }

  /** {@code translog-<generation>.ckp}, the checkpoint of a generation that no longer changes. */
  static String sealedCheckpointFileName(long generation) {
    return "translog-" + generation + ".ckp";
  }

  /**
   * Whether {@code name} is one a translog gives its files: the live checkpoint, the lock file, a
   * generation file, a sealed checkpoint, or a temporary file of an atomic write or preparation.
   * The one rule for what belongs to a translog, for recovery's listing and the inspector's.
   */
  static boolean isTranslogFile(String name) {
    return name.equals(LIVE_CHECKPOINT)
        || name.equals(LOCK_FILE)
        || GENERATION.matcher(name).matches()
        || SEALED.matcher(name).matches()
        || isTemporary(name);
  }

  private static boolean isTemporary(String name) {
    return name.startsWith(NAME_PREFIX) && name.endsWith(TEMPORARY_SUFFIX);
  }

  /**
   * The length a generation file is prepared to: the roll size rounded up to whole pages, at least
   * one page past the header.
   */
  static long preparedLength(long rollSize) {
    long length = Math.max(rollSize, TranslogHeader.SIZE + 1);
    return (length + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
  }

  /**
   * The translog files found in a directory.
   *
   * @param liveCheckpoint whether {@code translog.ckp} exists
   * @param generations generation files by generation
   * @param sealedCheckpoints sealed checkpoint files by generation
   * @param temporary files left by an interrupted atomic write or preparation
   */
  record Listing(
      boolean liveCheckpoint,
      SortedMap<Long, Path> generations,
      SortedMap<Long, Path> sealedCheckpoints,
      List<Path> temporary) {}

  /**
   * Lists the translog files of {@code directory}; files with other names, and the lock file, are
   * not listed.
   */
  static Listing list(Path directory) throws IOException {
    boolean live = false;
    SortedMap<Long, Path> generations = new TreeMap<>();
    SortedMap<Long, Path> sealed = new TreeMap<>();
    List<Path> temporary = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path path : stream) {
        String name = path.getFileName().toString();
        Matcher generation = GENERATION.matcher(name);
        Matcher checkpoint = SEALED.matcher(name);
        if (name.equals(LIVE_CHECKPOINT)) {
          live = true;
        } else if (generation.matches()) {
          generations.put(Long.parseLong(generation.group(1)), path);
        } else if (checkpoint.matches()) {
          sealed.put(Long.parseLong(checkpoint.group(1)), path);
        } else if (isTemporary(name)) {
          temporary.add(path);
        }
      }
    }
    Collections.sort(temporary);
    return new Listing(live, generations, sealed, temporary);
  }

  /**
   * Creates {@code directory} and the missing directories above it, and makes each new entry
   * durable by forcing the directory that holds it: a directory whose creation is not durable can
   * vanish in a crash with everything in it.
   */
  static void createDirectories(Path directory) throws IOException {
    Path absolute = directory.toAbsolutePath();
    List<Path> missing = new ArrayList<>();
    for (Path dir = absolute;
        dir != null && Files.isDirectory(dir) == false;
        dir = dir.getParent()) {
      missing.add(0, dir);
    }
    if (missing.isEmpty()) {
      return;
    }
    Files.createDirectories(absolute);
    for (Path created : missing) {
      Path parent = created.getParent();
      if (parent != null) {
        fsyncDirectory(parent);
      }
    }
  }

  /**
   * Prepares the file of a generation before anything is appended to it: writes its header and
   * zeros up to {@code length} into {@code translog-<g>.tlog.tmp}, forces it, renames it over
   * {@code translog-<g>.tlog} atomically and fsyncs the directory. The zeros are written, not
   * allocated: on ext4 an allocated-but-unwritten extent is converted, in the journal, by the first
   * write into it, which the fsync of an acknowledgement would then wait for. Once prepared, a sync
   * that overwrites these blocks has no file size or extent to make durable.
   *
   * @return the prepared file, open for reading and writing
   */
  static FileChannel prepareGeneration(Path directory, TranslogHeader header, long length)
      throws IOException {
    String name = generationFileName(header.generation());
    Path temporary = directory.resolve(name + TEMPORARY_SUFFIX);
    try (FileChannel channel =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      header.write(channel);
      ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(ZERO_CHUNK, length));
      long position = TranslogHeader.SIZE;
      while (position < length) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), length - position));
        while (zeros.hasRemaining()) {
          position += channel.write(zeros, position);
        }
      }
      channel.force(false);
    }
    Path file = directory.resolve(name);
    Files.move(
        temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    fsyncDirectory(directory);
    // Opened again under its final name, so that every later operation names the file it is.
    return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /**
   * Replaces {@code name} with {@code content} so that after a crash the file holds either its old
   * content or the new one, never a mix: the content goes to a temporary file, which is forced,
   * renamed over {@code name} atomically, and the rename is made durable by a directory fsync.
   */
  static void writeAtomically(Path directory, String name, ByteBuffer content) throws IOException {
    Path temporary = directory.resolve(name + TEMPORARY_SUFFIX);
    try (FileChannel channel =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      long position = 0;
      while (content.hasRemaining()) {
        position += channel.write(content, position);
      }
      channel.force(false);
    }
    Files.move(
        temporary,
        directory.resolve(name),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    fsyncDirectory(directory);
  }

  /**
   * Deletes the files of a generation: its file, its sealed checkpoint and the temporary files of
   * an interrupted sealing or preparation, those that exist. The caller fsyncs the directory.
   */
  static void deleteGeneration(Path directory, long generation) throws IOException {
    String file = generationFileName(generation);
    Files.deleteIfExists(directory.resolve(file));
    Files.deleteIfExists(directory.resolve(file + TEMPORARY_SUFFIX));
    String sealed = sealedCheckpointFileName(generation);
    Files.deleteIfExists(directory.resolve(sealed));
    Files.deleteIfExists(directory.resolve(sealed + TEMPORARY_SUFFIX));
  }

  /**
   * Makes the directory's entries durable: files created, renamed or deleted in it survive a crash
   * only after this returns. Windows cannot open a directory for this and orders its metadata
   * writes itself, so there it does nothing.
   */
  static void fsyncDirectory(Path directory) throws IOException {
    if (OperatingSystem.WINDOWS) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
