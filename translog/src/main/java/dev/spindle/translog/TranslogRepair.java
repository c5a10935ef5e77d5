package dev.spindle.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Carries out, for {@link dev.spindle.translog.inspect.TranslogInspector#repair}, a recovery plan
 * that cuts the translog: first backs up every file the plan deletes or overwrites, then carries
 * the plan out exactly as {@link Translog#open} would, without opening the translog for appends.
 *
 * <p>The backup is made durable before the first change: each copy is forced, and so is the backup
 * directory. The note {@value #UNDO_NOTE} in it names the translog directory, the cut, every file
 * backed up and every file the repair creates, and the two commands that undo it.
 */
final class TranslogRepair {

  /** The name of the note in the backup directory. */
  static final String UNDO_NOTE = "UNDO.txt";

  private final Path directory;
  private final PlannedRecovery preview;
  private final Path backup;

  TranslogRepair(Path directory, PlannedRecovery preview, Path backup) {
    this.directory = directory;
    this.preview = preview;
    this.backup = backup;
  }

  /**
   * Copies every file the plan deletes or overwrites into the backup directory, with the note, and
   * forces them all.
   */
  void backUp() throws IOException {
    if (backup.toAbsolutePath().normalize().equals(directory.toAbsolutePath().normalize())) {
      throw new IllegalArgumentException(
          "the backup directory must not be the translog directory " + directory);
    }
    if (Files.exists(backup)) {
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(backup)) {
        if (entries.iterator().hasNext()) {
          throw new FileAlreadyExistsException(
              backup.toString(), null, "the backup directory must be new or empty");
        }
      }
    } else {
      TranslogFiles.createDirectories(backup);
    }
    List<Path> saved = new ArrayList<>(preview.filesDeleted());
    saved.addAll(preview.filesReplaced());
    for (Path file : saved) {
      Path copy = backup.resolve(file.getFileName().toString());
      Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
      try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
    }
    Path note = backup.resolve(UNDO_NOTE);
    try (FileChannel channel =
        FileChannel.open(note, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer bytes = ByteBuffer.wrap(note(saved).getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      channel.force(true);
    }
    TranslogFiles.fsyncDirectory(backup);
  }

  /** Carries the plan out; the translog is left closed, as after an open and a close. */
  static void carryOut(Path directory, RecoveryPlan plan) throws IOException {
    BackgroundWork background = new BackgroundWork(Runnable::run, directory, failure -> {});
    // The opened generation receives no record before the next open starts another one, so one
    // page past its header is all it needs.
    try (GenerationPreparer preparer =
        new GenerationPreparer(
            directory, plan.uuid(), TranslogFiles.preparedLength(0), background)) {
      RecoveryPlan.Opened opened = plan.carryOut(directory, preparer);
      Closeables.close(opened.prepared(), opened.checkpointFile());
    } finally {
      background.close();
    }
  }

  private String note(List<Path> saved) throws IOException {
    StringBuilder note = new StringBuilder();
    note.append("Backup of a Spindle translog repair\n\n");
    note.append("translog directory: ").append(directory.toAbsolutePath()).append('\n');
    note.append("recovery mode:      ").append(preview.mode()).append('\n');
    note.append("repaired at:        ").append(Instant.now()).append('\n');
    preview
        .report()
        .damage()
        .ifPresent(damage -> note.append("cut at:             ").append(damage.getMessage()));
    note.append(
            "\n\nBefore changing anything, the repair copied here, byte for byte, every file it")
        .append(" deleted or overwrote:\n");
    for (Path file : saved) {
      note.append("  ")
          .append(file.getFileName())
          .append(" (")
          .append(Files.size(file))
          .append(" bytes, ")
          .append(preview.filesDeleted().contains(file) ? "deleted" : "overwritten")
          .append(")\n");
    }
    note.append("and created:\n");
    for (Path file : preview.filesCreated()) {
      note.append("  ").append(file.getFileName()).append('\n');
    }
    note.append(
        "\nTo undo the repair, with no process holding the translog open, delete the files it"
            + " created and copy these back:\n\n");
    if (preview.filesCreated().isEmpty() == false) {
      note.append("  rm -f");
      for (Path file : preview.filesCreated()) {
        note.append(' ').append(quote(directory.toAbsolutePath().resolve(file.getFileName())));
      }
      note.append('\n');
    }
    note.append("  cp -p");
    for (Path file : saved) {
      note.append(' ').append(quote(backup.toAbsolutePath().resolve(file.getFileName())));
    }
    note.append(' ').append(quote(directory.toAbsolutePath())).append("/\n");
    return note.toString();
  }

  /** Quotes a path for a POSIX shell. */
  private static String quote(Path path) {
    return "'" + path.toString().replace("'", "'\\''") + "'";
  }
}
