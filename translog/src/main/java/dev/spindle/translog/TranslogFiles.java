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
import org.apache.lucene.util.Constants;
import org.apache.lucene.util.IOUtils;

/**
 * The names of a translog's files and the file-system steps whose order the format depends on:
 * creating a generation, replacing a file atomically, and making directory entries durable. All I/O
 * goes through {@link java.nio.file} paths, so a test file system sees every step.
 */
final class TranslogFiles {

  /** The live checkpoint, rewritten in place by every sync. */
  static final String LIVE_CHECKPOINT = "translog.ckp";

  static final String TEMPORARY_SUFFIX = ".tmp";

  private static final Pattern GENERATION = Pattern.compile("translog-([1-9][0-9]{0,17})\\.tlog");
  private static final Pattern SEALED = Pattern.compile("translog-([1-9][0-9]{0,17})\\.ckp");

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
   * The translog files found in a directory.
   *
   * @param liveCheckpoint whether {@code translog.ckp} exists
   * @param generations generation files by generation
   * @param sealedCheckpoints sealed checkpoint files by generation
   * @param temporary files left by an interrupted atomic write
   */
  record Listing(
      boolean liveCheckpoint,
      SortedMap<Long, Path> generations,
      SortedMap<Long, Path> sealedCheckpoints,
      List<Path> temporary) {

    boolean isEmpty() {
      return liveCheckpoint == false
          && generations.isEmpty()
          && sealedCheckpoints.isEmpty()
          && temporary.isEmpty();
    }
  }

  /** Lists the translog files of {@code directory}; files with other names are not listed. */
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
        } else if (name.startsWith("translog") && name.endsWith(TEMPORARY_SUFFIX)) {
          temporary.add(path);
        }
      }
    }
    Collections.sort(temporary);
    return new Listing(live, generations, sealed, temporary);
  }

  /**
   * Creates (or replaces) the file of a generation, writes its header and forces it. The caller
   * makes the directory entry durable with {@link #fsyncDirectory} before any checkpoint names the
   * generation.
   *
   * @return the file, open for reading and writing
   */
  static FileChannel createGeneration(Path directory, TranslogHeader header) throws IOException {
    Path file = directory.resolve(generationFileName(header.generation()));
    FileChannel channel =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE);
    boolean success = false;
    try {
      header.write(channel);
      channel.force(false);
      success = true;
      return channel;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(channel);
      }
    }
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
   * Deletes the files of a generation: its file, its sealed checkpoint and a temporary file left by
   * an interrupted sealing, those that exist. The caller fsyncs the directory.
   */
  static void deleteGeneration(Path directory, long generation) throws IOException {
    Files.deleteIfExists(directory.resolve(generationFileName(generation)));
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
    if (Constants.WINDOWS) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
