package dev.spindle.tests;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Random;
import org.apache.lucene.tests.mockfile.FilterFileChannel;

/**
 * A channel on a regular file of a {@link PowerLossFileSystem}: it performs each operation on the
 * real file and records in the file's {@link FileNode} what the operation changed, while holding
 * the node's monitor so that both see the same order. Reads go straight to the real file, which is
 * the page cache of the simulation. Does not call the real {@code force}: durability is simulated.
 *
 * <p>Dead after a power loss: every operation then throws an {@link IOException}; closing it is
 * allowed.
 *
 * <p>Not final: on Java 22 and later, {@link SimulatedFileChannels} creates a subclass that also
 * maps into an {@code Arena}.
 */
class SimulatedFileChannel extends FilterFileChannel {

  private static final int TRANSFER_CHUNK = 64 * 1024;

  private final PowerLossProvider owner;
  private final PowerState power;
  private final FileNode node;
  private final Path path;
  private final boolean append;
  private final boolean syncEveryWrite;
  private final int generation;

  SimulatedFileChannel(
      FileChannel delegate,
      PowerLossProvider owner,
      FileNode node,
      Path path,
      boolean append,
      boolean syncEveryWrite) {
    super(delegate);
    this.owner = owner;
    this.power = owner.power;
    this.node = node;
    this.path = path;
    this.append = append;
    this.syncEveryWrite = syncEveryWrite;
    this.generation = power.cuts();
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      return delegate.read(dst);
    }
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      return delegate.read(dsts, offset, length);
    }
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      return delegate.read(dst, position);
    }
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    try (PowerState.Operation op = power.beginChange(FileOperation.WRITE, path)) {
      ensureAlive();
      synchronized (node) {
        long offset = append ? node.length() : delegate.position();
        return write(src, offset, false, op.fault);
      }
    }
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      if (srcs[i].hasRemaining()) {
        total += write(srcs[i]);
        if (srcs[i].hasRemaining()) {
          break;
        }
      }
    }
    return total;
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    if (position < 0) {
      throw new IllegalArgumentException("negative position: " + position);
    }
    try (PowerState.Operation op = power.beginChange(FileOperation.WRITE, path)) {
      ensureAlive();
      synchronized (node) {
        return write(src, append ? node.length() : position, true, op.fault);
      }
    }
  }

  /** Writes through to the real file and records the bytes; the caller holds the node monitor. */
  private int write(ByteBuffer src, long offset, boolean positional, InjectedFault fault)
      throws IOException {
    int requested = src.remaining();
    int allowed = requested;
    if (fault != null) {
      Random random = power.faultOutcomes();
      String what = "write of " + requested + " bytes at offset " + offset + " to " + path;
      switch (fault) {
        case IO_ERROR, UNBACKED_MAPPING -> {
          power.logFault(what + ": " + fault);
          throw owner.injected(fault, what);
        }
        case NO_SPACE, PARTIAL_WRITE -> allowed = requested == 0 ? 0 : random.nextInt(requested);
        case SHORT_WRITE -> allowed = requested < 2 ? requested : 1 + random.nextInt(requested - 1);
      }
      power.logFault(what + ": " + fault + ", " + allowed + " bytes written");
    }
    ByteBuffer slice = src.slice(src.position(), allowed);
    int written = positional ? delegate.write(slice, offset) : delegate.write(slice);
    byte[] bytes = new byte[written];
    src.get(src.position(), bytes);
    src.position(src.position() + written);
    node.recordWrite(offset, bytes);
    if (fault == InjectedFault.NO_SPACE || fault == InjectedFault.PARTIAL_WRITE) {
      throw owner.injected(
          fault, "write of " + requested + " bytes at offset " + offset + " to " + path);
    }
    if (syncEveryWrite) {
      node.force();
    }
    return written;
  }

  @Override
  public long position() throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      return delegate.position();
    }
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      delegate.position(newPosition);
      return this;
    }
  }

  @Override
  public long size() throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      return delegate.size();
    }
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    if (size < 0) {
      throw new IllegalArgumentException("negative size: " + size);
    }
    try (PowerState.Operation op = power.beginChange(FileOperation.TRUNCATE, path)) {
      ensureAlive();
      owner.failIfInjected(op.fault, "truncate of " + path + " to " + size + " bytes");
      synchronized (node) {
        delegate.truncate(size);
        if (size < node.length()) {
          node.recordResize(size);
          if (syncEveryWrite) {
            node.force();
          }
        }
      }
      return this;
    }
  }

  @Override
  public void force(boolean metaData) throws IOException {
    try (PowerState.Operation op = power.beginChange(FileOperation.FORCE, path)) {
      ensureAlive();
      synchronized (node) {
        if (op.fault != null && op.fault != InjectedFault.SHORT_WRITE) {
          String outcome = node.failForce(power.faultOutcomes());
          power.logFault("force of " + path + ": " + op.fault + ", " + outcome);
          throw owner.injected(op.fault, "force of " + path);
        }
        node.force();
      }
    }
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
    long done = 0;
    while (done < count) {
      buffer.clear().limit((int) Math.min(buffer.capacity(), count - done));
      int n = read(buffer, position + done);
      if (n <= 0) {
        break;
      }
      buffer.flip();
      while (buffer.hasRemaining()) {
        target.write(buffer);
      }
      done += n;
    }
    return done;
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
    long done = 0;
    while (done < count) {
      buffer.clear().limit((int) Math.min(buffer.capacity(), count - done));
      int n = src.read(buffer);
      if (n <= 0) {
        break;
      }
      buffer.flip();
      while (buffer.hasRemaining()) {
        write(buffer, position + done + buffer.position());
      }
      done += n;
    }
    return done;
  }

  /**
   * Maps the real file. A read-write mapping is the seam for memory-mapped writers: the simulation
   * cannot see stores into the buffer, so it reads the mapped region of the real file back at each
   * {@link #force} of any channel on this file and at a power loss (see {@link FileNode}).
   */
  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    return map(mode, position, size, false, real -> real.map(mode, position, size));
  }

  /** Maps a region of a real channel. */
  @FunctionalInterface
  interface RealMapping<T> {
    T map(FileChannel real) throws IOException;
  }

  /**
   * Maps through {@code mapping}, given the real channel: this channel's delegate, or, with {@code
   * rawChannel}, a channel of the file system below every test file system, for mappings that only
   * the JDK's own channels make (into an {@code Arena}). A read-write mapping is a {@link
   * FileOperation#MAP}, which a fault can fail or make {@linkplain InjectedFault#UNBACKED_MAPPING
   * unbacked}.
   */
  final <T> T map(
      MapMode mode, long position, long size, boolean rawChannel, RealMapping<T> mapping)
      throws IOException {
    if (mode != MapMode.READ_WRITE) {
      try (PowerState.Operation op = power.begin(null, path)) {
        ensureAlive();
        if (rawChannel == false) {
          return mapping.map(delegate);
        }
        try (FileChannel raw = owner.openRaw(node, path, false)) {
          return mapping.map(raw);
        }
      }
    }
    try (PowerState.Operation op = power.beginChange(FileOperation.MAP, path)) {
      ensureAlive();
      if (op.fault == InjectedFault.UNBACKED_MAPPING) {
        power.logFault("map of " + path + ": " + op.fault);
        return owner.unbackedMapping(mapping);
      }
      if (op.fault != InjectedFault.SHORT_WRITE) {
        owner.failIfInjected(op.fault, "map of " + path);
      }
      if (rawChannel == false) {
        synchronized (node) {
          T mapped = mapping.map(delegate);
          node.recordMapping(position, size, delegate);
          owner.mapped(node);
          return mapped;
        }
      }
      // Opened before taking the node's monitor: finding the file's name takes the namespace's,
      // which comes first.
      FileChannel raw = owner.openRaw(node, path, true);
      boolean kept = false;
      try {
        synchronized (node) {
          T mapped = mapping.map(raw);
          kept = node.recordMapping(position, size, raw);
          owner.mapped(node);
          return mapped;
        }
      } finally {
        if (kept == false) {
          raw.close();
        }
      }
    }
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      return delegate.lock(position, size, shared);
    }
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      ensureAlive();
      return delegate.tryLock(position, size, shared);
    }
  }

  @Override
  protected void implCloseChannel() throws IOException {
    owner.closed(this);
    if (node.ownsReader(delegate) == false) {
      delegate.close();
    }
  }

  /** At a power loss: the process holding this channel is gone. */
  void closeForPowerLoss() throws IOException {
    if (node.ownsReader(delegate) == false) {
      delegate.close();
    }
  }

  private void ensureAlive() throws IOException {
    if (generation != power.cuts()) {
      throw new IOException(
          "channel on "
              + path
              + " was opened before simulated power loss #"
              + power.cuts()
              + " and is dead");
    }
  }

  @Override
  public String toString() {
    return "SimulatedFileChannel(" + path + ")";
  }
}
