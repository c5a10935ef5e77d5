package dev.spindle.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.apache.lucene.tests.mockfile.FilterFileSystemProvider;
import org.apache.lucene.tests.mockfile.FilterPath;

/**
 * The provider behind a {@link PowerLossFileSystem}: every operation under the root goes to the
 * real file system and is recorded in the {@link Namespace} and the {@link FileNode}s, under the
 * namespace monitor, so the model sees changes in the order the disk did. Paths outside the root
 * can be read but not changed.
 */
final class PowerLossProvider extends FilterFileSystemProvider {

  final Path realRoot;
  final Namespace namespace;
  final PowerState power;

  /** Channels open now, closed for the process at a power loss. */
  private final Set<FileChannel> open = ConcurrentHashMap.newKeySet();

  /** Files mapped read-write since the last power loss. */
  private final Set<FileNode> mapped = ConcurrentHashMap.newKeySet();

  private volatile String lastPowerLoss;

  PowerLossProvider(Path realRoot, long seed) {
    super("powerloss", realRoot.getFileSystem().provider());
    this.realRoot = realRoot;
    this.namespace = new Namespace(delegate, realRoot);
    this.power =
        new PowerState(
            seed, realRoot.toString() + realRoot.getFileSystem().getSeparator(), this::cutPower);
  }

  void attach(PowerLossFileSystem fileSystem) {
    this.fileSystem = fileSystem;
  }

  String cutPower(Random random) throws IOException {
    String[] report = new String[1];
    power.switchOff(
        () -> {
          // Rewrite below any test file systems in between: their side effects (ExtrasFS adds
          // files to new directories) belong to the code under test, not to the disk's state.
          Path raw = FilterPath.unwrap(realRoot);
          PowerCut cut = new PowerCut(raw.getFileSystem().provider(), raw, namespace, power.cuts());
          report[0] =
              cut.run(random, List.copyOf(open), List.copyOf(mapped), power.drainFaultLog());
          open.clear();
          mapped.clear();
        });
    lastPowerLoss = report[0];
    return report[0];
  }

  String lastPowerLoss() {
    return lastPowerLoss;
  }

  /**
   * Opens {@code path} on the file system below every test file system, whose channels map into an
   * {@code Arena}, which those of Lucene's test file systems do not.
   */
  FileChannel openRaw(FileNode node, Path path, boolean write) throws IOException {
    Path current = namespace.realPathOf(node);
    if (current == null) {
      throw new IOException("cannot map " + path + ": the file was deleted since it was opened");
    }
    Path raw = FilterPath.unwrap(current);
    return write
        ? FileChannel.open(raw, StandardOpenOption.READ, StandardOpenOption.WRITE)
        : FileChannel.open(raw, StandardOpenOption.READ);
  }

  /**
   * A mapping whose pages no disk backs: of a scratch file next to the simulated directory, which
   * the mapping extends and which is then truncated to nothing and deleted, so that every access to
   * the mapping faults with {@code SIGBUS}, as a store into a hole of a full disk does.
   */
  <T> T unbackedMapping(SimulatedFileChannel.RealMapping<T> mapping) throws IOException {
    Path raw = FilterPath.unwrap(realRoot);
    Path scratch = Files.createTempFile(raw.getParent(), "unbacked-mapping", ".tmp");
    try (FileChannel channel =
        FileChannel.open(scratch, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      T mapped = mapping.map(channel);
      channel.truncate(0);
      return mapped;
    } finally {
      Files.deleteIfExists(scratch);
    }
  }

  void closeAll() throws IOException {
    for (FileChannel channel : List.copyOf(open)) {
      channel.close();
    }
    for (FileNode node : List.copyOf(mapped)) {
      node.releaseMappedReader();
    }
    mapped.clear();
  }

  void closed(FileChannel channel) {
    open.remove(channel);
  }

  void mapped(FileNode node) {
    mapped.add(node);
  }

  IOException injected(InjectedFault fault, String what) {
    String message =
        fault == InjectedFault.NO_SPACE
            ? "No space left on device (injected): " + what
            : "injected " + fault + ": " + what;
    return new IOException(message);
  }

  void failIfInjected(InjectedFault fault, String what) throws IOException {
    if (fault != null && fault != InjectedFault.SHORT_WRITE) {
      power.logFault(what + ": " + fault);
      throw injected(fault, what);
    }
  }

  /** The names of {@code path} below the root, empty for the root, null if outside it. */
  private List<String> names(Path path) {
    Path real = toDelegate(path).toAbsolutePath().normalize();
    if (real.startsWith(realRoot) == false) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (Path name : realRoot.relativize(real)) {
      if (name.toString().isEmpty() == false) {
        names.add(name.toString());
      }
    }
    return names;
  }

  private List<String> namesToChange(Path path) {
    List<String> names = names(path);
    if (names == null) {
      throw new IllegalArgumentException(
          path + " is outside the simulated root " + realRoot + " and cannot be changed");
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException("the simulated root " + realRoot + " cannot be changed");
    }
    return names;
  }

  private DirNode parentOf(List<String> names) throws IOException {
    return namespace.directory(names.subList(0, names.size() - 1));
  }

  private static String last(List<String> names) {
    return names.get(names.size() - 1);
  }

  @Override
  public FileChannel newFileChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    if (options.contains(StandardOpenOption.DELETE_ON_CLOSE)) {
      throw new UnsupportedOperationException("DELETE_ON_CLOSE is not simulated: " + path);
    }
    boolean writes =
        options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND);
    List<String> names = names(path);
    if (names == null) {
      if (writes) {
        namesToChange(path);
      }
      try (PowerState.Operation op = power.begin(FileOperation.OPEN, path)) {
        failIfInjected(op.fault, "open of " + path);
        return super.newFileChannel(path, options, attrs);
      }
    }
    try (PowerState.Operation op =
        writes
            ? power.beginChange(FileOperation.OPEN, path)
            : power.begin(FileOperation.OPEN, path)) {
      failIfInjected(op.fault, "open of " + path);
      synchronized (namespace) {
        if (names.isEmpty()) {
          return register(
              new DirectoryChannel(
                  super.newFileChannel(path, options, attrs), this, namespace.root, path));
        }
        DirNode parent = parentOf(names);
        String name = last(names);
        Node existing = parent == null ? null : namespace.child(parent, name);
        if (existing instanceof DirNode dir) {
          return register(
              new DirectoryChannel(super.newFileChannel(path, options, attrs), this, dir, path));
        }
        FileNode node = (FileNode) existing;
        FileChannel real;
        if (node != null && writes && options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
          synchronized (node) {
            real = super.newFileChannel(path, options, attrs);
            node.recordResize(0);
          }
        } else {
          real = super.newFileChannel(path, options, attrs);
        }
        if (node == null) {
          if (parent == null) {
            real.close();
            throw new IllegalStateException("created " + path + " in a directory never seen");
          }
          node = namespace.createFile(parent, name);
        }
        boolean sync =
            options.contains(StandardOpenOption.SYNC) || options.contains(StandardOpenOption.DSYNC);
        return register(
            SimulatedFileChannels.create(
                real, this, node, path, options.contains(StandardOpenOption.APPEND), sync));
      }
    }
  }

  private FileChannel register(FileChannel channel) {
    open.add(channel);
    return channel;
  }

  @Override
  public SeekableByteChannel newByteChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    return newFileChannel(path, options, attrs);
  }

  @Override
  public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
    Set<OpenOption> set = new HashSet<>(Arrays.asList(options));
    if (set.isEmpty()) {
      set.add(StandardOpenOption.CREATE);
      set.add(StandardOpenOption.TRUNCATE_EXISTING);
    }
    if (set.contains(StandardOpenOption.READ)) {
      throw new IllegalArgumentException("READ not allowed for an output stream");
    }
    set.add(StandardOpenOption.WRITE);
    return Channels.newOutputStream(newFileChannel(path, set));
  }

  @Override
  public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
    Set<OpenOption> set = new HashSet<>(Arrays.asList(options));
    if (set.contains(StandardOpenOption.WRITE) || set.contains(StandardOpenOption.APPEND)) {
      throw new UnsupportedOperationException("an input stream cannot write: " + set);
    }
    set.add(StandardOpenOption.READ);
    return Channels.newInputStream(newFileChannel(path, set));
  }

  @Override
  public AsynchronousFileChannel newAsynchronousFileChannel(
      Path path,
      Set<? extends OpenOption> options,
      ExecutorService executor,
      FileAttribute<?>... attrs) {
    throw new UnsupportedOperationException("asynchronous channels are not simulated: " + path);
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    List<String> names = names(dir);
    if (names == null) {
      namesToChange(dir);
    }
    try (PowerState.Operation op = power.beginChange(FileOperation.CREATE_DIRECTORY, dir)) {
      failIfInjected(op.fault, "creating directory " + dir);
      synchronized (namespace) {
        if (names.isEmpty()) {
          super.createDirectory(dir, attrs); // the root exists: throws
          return;
        }
        DirNode parent = parentOf(names);
        super.createDirectory(dir, attrs);
        if (parent != null) {
          namespace.createDirectory(parent, last(names));
        }
      }
    }
  }

  @Override
  public void delete(Path path) throws IOException {
    deleteIfExists(path, true);
  }

  @Override
  public boolean deleteIfExists(Path path) throws IOException {
    return deleteIfExists(path, false);
  }

  private boolean deleteIfExists(Path path, boolean mustExist) throws IOException {
    List<String> names = namesToChange(path);
    try (PowerState.Operation op = power.beginChange(FileOperation.DELETE, path)) {
      failIfInjected(op.fault, "delete of " + path);
      synchronized (namespace) {
        DirNode parent = parentOf(names);
        if (parent != null) {
          namespace.child(parent, last(names));
        }
        boolean deleted;
        if (mustExist) {
          super.delete(path);
          deleted = true;
        } else {
          deleted = super.deleteIfExists(path);
        }
        if (deleted && parent != null) {
          namespace.unlink(parent, last(names));
        }
        return deleted;
      }
    }
  }

  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    List<String> from = namesToChange(source);
    List<String> to = namesToChange(target);
    try (PowerState.Operation op = power.beginChange(FileOperation.RENAME, source)) {
      failIfInjected(op.fault, "rename of " + source + " to " + target);
      synchronized (namespace) {
        DirNode fromDir = parentOf(from);
        DirNode toDir = parentOf(to);
        if (fromDir != null) {
          namespace.child(fromDir, last(from));
        }
        if (toDir != null) {
          namespace.child(toDir, last(to));
        }
        super.move(source, target, options);
        namespace.rename(fromDir, last(from), toDir, last(to));
      }
    }
  }

  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    List<CopyOption> list = Arrays.asList(options);
    if (list.contains(StandardCopyOption.ATOMIC_MOVE)) {
      throw new UnsupportedOperationException("ATOMIC_MOVE is not a copy option");
    }
    BasicFileAttributes attributes =
        readAttributes(source, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (list.contains(StandardCopyOption.REPLACE_EXISTING)) {
      deleteIfExists(target);
    } else if (exists(target)) {
      throw new FileAlreadyExistsException(target.toString());
    }
    if (attributes.isDirectory()) {
      createDirectory(target);
      return;
    }
    try (FileChannel in = newFileChannel(source, Set.of(StandardOpenOption.READ));
        FileChannel out =
            newFileChannel(
                target, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
      in.transferTo(0, in.size(), out);
    }
  }

  private boolean exists(Path path) throws IOException {
    try {
      readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return true;
    } catch (
        @SuppressWarnings("unused")
        NoSuchFileException e) {
      return false;
    }
  }

  @Override
  public void createLink(Path link, Path existing) throws IOException {
    List<String> linkNames = namesToChange(link);
    List<String> existingNames = namesToChange(existing);
    try (PowerState.Operation op = power.beginChange(null, link)) {
      synchronized (namespace) {
        DirNode existingDir = parentOf(existingNames);
        Node node = existingDir == null ? null : namespace.child(existingDir, last(existingNames));
        DirNode linkDir = parentOf(linkNames);
        super.createLink(link, existing);
        if (node instanceof FileNode file && linkDir != null) {
          namespace.link(linkDir, last(linkNames), file);
        }
      }
    }
  }

  @Override
  public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) {
    throw new UnsupportedOperationException("symbolic links are not simulated: " + link);
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(
      Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
    try (PowerState.Operation op = power.begin(null, dir)) {
      return super.newDirectoryStream(dir, filter);
    }
  }

  @Override
  public <A extends BasicFileAttributes> A readAttributes(
      Path path, Class<A> type, LinkOption... options) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      return super.readAttributes(path, type, options);
    }
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
      throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      return super.readAttributes(path, attributes, options);
    }
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      super.checkAccess(path, modes);
    }
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options)
      throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      super.setAttribute(path, attribute, value, options);
    }
  }

  @Override
  public boolean isSameFile(Path path, Path path2) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      return super.isSameFile(path, path2);
    }
  }

  @Override
  public FileStore getFileStore(Path path) throws IOException {
    try (PowerState.Operation op = power.begin(null, path)) {
      return super.getFileStore(path);
    }
  }
}
