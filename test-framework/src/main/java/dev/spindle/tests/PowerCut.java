package dev.spindle.tests;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * One power loss: chooses the state the disk is left in, from the model and a {@link Random}, and
 * rewrites the real directory tree to it. Runs with the power lock held for writing, so nothing
 * else touches the model or the real files meanwhile.
 *
 * <p>Every file is rewritten as a new real file, so mappings and channels that survive in the old
 * process keep pointing at unlinked inodes and cannot disturb the new state.
 */
final class PowerCut {

  private final FileSystemProvider real;
  private final Path realRoot;
  private final Namespace namespace;
  private final int number;

  PowerCut(FileSystemProvider real, Path realRoot, Namespace namespace, int number) {
    this.real = real;
    this.realRoot = realRoot;
    this.namespace = namespace;
    this.number = number;
  }

  /** Cuts the power and returns a report of the state chosen. */
  String run(
      Random random, List<FileChannel> openChannels, List<FileNode> mapped, List<String> faults)
      throws IOException {
    for (FileChannel channel : openChannels) {
      if (channel instanceof SimulatedFileChannel file) {
        file.closeForPowerLoss();
      } else if (channel instanceof DirectoryChannel dir) {
        dir.closeForPowerLoss();
      }
    }
    namespace.adoptUnknownEntries();

    int blockSize = random.nextBoolean() ? 512 : FileImage.PAGE_SIZE;
    List<String> report = new ArrayList<>();
    LinkedHashMap<DirNode, TreeMap<String, Node>> tree = namespace.crashTree(random, report);
    Map<FileNode, FileImage> images = new IdentityHashMap<>();
    Map<DirNode, String> paths = new IdentityHashMap<>();
    paths.put(namespace.root, "");
    for (Map.Entry<DirNode, TreeMap<String, Node>> entry : tree.entrySet()) {
      String dirPath = paths.get(entry.getKey());
      for (Map.Entry<String, Node> child : entry.getValue().entrySet()) {
        String path = dirPath.isEmpty() ? child.getKey() : dirPath + "/" + child.getKey();
        if (child.getValue() instanceof DirNode dir) {
          paths.put(dir, path);
        } else if (child.getValue() instanceof FileNode file && images.containsKey(file) == false) {
          images.put(file, file.crashImage(random, blockSize, path, report));
        }
      }
    }
    for (FileNode node : mapped) {
      node.releaseMappedReader();
    }

    wipe();
    materialize(tree, images);
    namespace.reset(tree);
    for (Map.Entry<FileNode, FileImage> entry : images.entrySet()) {
      entry.getKey().reset(entry.getValue());
    }

    StringBuilder description =
        new StringBuilder("power loss #")
            .append(number)
            .append(" (")
            .append(blockSize)
            .append(" B blocks)");
    if (report.isEmpty()) {
      description.append(": nothing was unsynced");
    }
    for (String fault : faults) {
      description.append("\n  injected before it: ").append(fault);
    }
    for (String line : report) {
      description.append("\n  ").append(line);
    }
    return description.toString();
  }

  private void wipe() throws IOException {
    Files.walkFileTree(
        realRoot,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            real.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            if (e != null) {
              throw e;
            }
            if (dir.equals(realRoot) == false) {
              real.delete(dir);
            }
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private void materialize(
      Map<DirNode, TreeMap<String, Node>> tree, Map<FileNode, FileImage> images)
      throws IOException {
    Map<DirNode, Path> dirs = new IdentityHashMap<>();
    dirs.put(namespace.root, realRoot);
    Map<FileNode, Path> written = new IdentityHashMap<>();
    for (Map.Entry<DirNode, TreeMap<String, Node>> entry : tree.entrySet()) {
      Path dirPath = dirs.get(entry.getKey());
      for (Map.Entry<String, Node> child : entry.getValue().entrySet()) {
        Path path = dirPath.resolve(child.getKey());
        if (child.getValue() instanceof DirNode dir) {
          real.createDirectory(path);
          dirs.put(dir, path);
        } else {
          FileNode file = (FileNode) child.getValue();
          Path first = written.get(file);
          if (first != null) {
            real.createLink(path, first);
          } else {
            write(path, images.get(file));
            written.put(file, path);
          }
        }
      }
    }
  }

  private void write(Path path, FileImage image) throws IOException {
    long length = image.length();
    try (FileChannel channel =
        real.newFileChannel(
            path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
      for (long page : image.writtenPages()) {
        long start = page * FileImage.PAGE_SIZE;
        if (start >= length) {
          break;
        }
        ByteBuffer bytes =
            ByteBuffer.wrap(image.read(start, (int) Math.min(FileImage.PAGE_SIZE, length - start)));
        while (bytes.hasRemaining()) {
          channel.write(bytes, start + bytes.position());
        }
      }
      if (channel.size() < length) {
        channel.write(ByteBuffer.wrap(new byte[1]), length - 1);
      }
    }
  }
}
