package dev.spindle.tests;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apache.lucene.tests.mockfile.FilterFileChannel;

/**
 * A channel opened on a directory of a {@link PowerLossFileSystem}, whose only use is {@link
 * #force}: it makes the directory's entry operations durable, as an fsync of a directory does. Dead
 * after a power loss.
 */
final class DirectoryChannel extends FilterFileChannel {

  private final PowerLossProvider owner;
  private final DirNode dir;
  private final Path path;
  private final int generation;

  DirectoryChannel(FileChannel delegate, PowerLossProvider owner, DirNode dir, Path path) {
    super(delegate);
    this.owner = owner;
    this.dir = dir;
    this.path = path;
    this.generation = owner.power.cuts();
  }

  @Override
  public void force(boolean metaData) throws IOException {
    try (PowerState.Operation op = owner.power.beginChange(FileOperation.FORCE, path)) {
      if (generation != owner.power.cuts()) {
        throw new IOException(
            "directory channel on " + path + " was opened before a simulated power loss");
      }
      if (op.fault != null && op.fault != InjectedFault.SHORT_WRITE) {
        // As with files, a failed directory fsync may or may not have reached the disk.
        boolean synced = owner.power.faultOutcomes().nextBoolean();
        if (synced) {
          owner.namespace.syncDirectory(dir);
        }
        owner.power.logFault(
            "force of directory "
                + path
                + ": "
                + op.fault
                + ", entries "
                + (synced ? "made durable" : "not made durable"));
        throw owner.injected(op.fault, "force of directory " + path);
      }
      owner.namespace.syncDirectory(dir);
    }
  }

  @Override
  protected void implCloseChannel() throws IOException {
    owner.closed(this);
    delegate.close();
  }

  void closeForPowerLoss() throws IOException {
    delegate.close();
  }

  @Override
  public String toString() {
    return "DirectoryChannel(" + path + ")";
  }
}
