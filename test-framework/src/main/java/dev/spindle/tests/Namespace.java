package dev.spindle.tests;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * The directory tree of the simulated disk: which names point to which nodes now, which did on
 * disk, and the entry operations in between.
 *
 * <p>Durability rule: an entry operation is durable once a directory it touches is fsynced after
 * it. Durability then spreads backwards the way a journaling file system commits: every earlier
 * operation on a directory touched by a durable operation is durable too, so the durable operations
 * of each directory are always a prefix of that directory's operations. A power loss keeps, per
 * directory, any prefix at least that long, such that a rename between two directories is kept in
 * both or in neither.
 *
 * <p>Entries found on the real disk that the model does not know (created before the file system
 * was wrapped, or behind its back) are adopted as durable when first seen.
 *
 * <p>Thread-safety: all methods synchronize on this object; callers that combine a lookup, a real
 * operation and its record hold the same monitor around all three.
 */
final class Namespace {

  private final FileSystemProvider real;
  private final Path realRoot;
  final DirNode root;
  private final List<EntryOp> pending = new ArrayList<>();
  private int nextId = 1;

  Namespace(FileSystemProvider real, Path realRoot) {
    this.real = real;
    this.realRoot = realRoot;
    this.root = new DirNode(0, null, null);
  }

  /** The directory at {@code names} below the root, or null if there is none. */
  synchronized DirNode directory(List<String> names) throws IOException {
    DirNode dir = root;
    for (String name : names) {
      if (child(dir, name) instanceof DirNode next) {
        dir = next;
      } else {
        return null;
      }
    }
    return dir;
  }

  /** The node {@code name} in {@code dir} points to, or null. */
  synchronized Node child(DirNode dir, String name) throws IOException {
    Node node = dir.entries.get(name);
    return node != null ? node : adopt(dir, name);
  }

  synchronized Path realPath(DirNode dir, String name) {
    return realPath(dir).resolve(name);
  }

  synchronized Path realPath(DirNode dir) {
    return dir.parent == null ? realRoot : realPath(dir.parent, dir.name);
  }

  /**
   * Where {@code node} is now, as the running system sees it (a file renamed after it was opened is
   * found under its new name), or null if no entry points to it any more.
   */
  synchronized Path realPathOf(FileNode node) {
    return realPathOf(root, node);
  }

  private Path realPathOf(DirNode dir, FileNode node) {
    for (Map.Entry<String, Node> entry : dir.entries.entrySet()) {
      if (entry.getValue() == node) {
        return realPath(dir, entry.getKey());
      }
      if (entry.getValue() instanceof DirNode sub) {
        Path found = realPathOf(sub, node);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  synchronized FileNode createFile(DirNode dir, String name) {
    FileNode node = new FileNode(nextId++, new FileImage());
    dir.entries.put(name, node);
    pending.add(EntryOp.link(dir, name, node, "create"));
    return node;
  }

  synchronized void createDirectory(DirNode dir, String name) {
    DirNode node = new DirNode(nextId++, dir, name);
    dir.entries.put(name, node);
    pending.add(EntryOp.link(dir, name, node, "mkdir"));
  }

  synchronized void link(DirNode dir, String name, FileNode node) {
    dir.entries.put(name, node);
    pending.add(EntryOp.link(dir, name, node, "link"));
  }

  synchronized void unlink(DirNode dir, String name) {
    Node node = dir.entries.remove(name);
    if (node != null) {
      pending.add(EntryOp.unlink(dir, name, node));
    }
  }

  synchronized void rename(DirNode from, String fromName, DirNode to, String toName) {
    if (from == to && fromName.equals(toName)) {
      return;
    }
    Node node = from.entries.get(fromName);
    if (node == null) {
      return;
    }
    boolean replacing = to.entries.containsKey(toName);
    pending.add(EntryOp.rename(from, fromName, to, toName, node, replacing));
    from.entries.remove(fromName);
    to.entries.put(toName, node);
    if (node instanceof DirNode moved) {
      moved.parent = to;
      moved.name = toName;
    }
  }

  /** An fsync of {@code dir}: its entry operations so far become durable. */
  synchronized void syncDirectory(DirNode dir) {
    Deque<EntryOp> work = new ArrayDeque<>();
    for (EntryOp op : pending) {
      if (op.touches(dir) && op.durable == false) {
        op.durable = true;
        work.add(op);
      }
    }
    while (work.isEmpty() == false) {
      EntryOp op = work.poll();
      int index = pending.indexOf(op);
      for (int i = 0; i < index; i++) {
        EntryOp earlier = pending.get(i);
        if (earlier.durable == false
            && (earlier.touches(op.dir) || (op.otherDir() != null && earlier.touches(op.toDir)))) {
          earlier.durable = true;
          work.add(earlier);
        }
      }
    }
    while (pending.isEmpty() == false && pending.get(0).durable) {
      pending.remove(0).applyTo(d -> d.durableEntries);
    }
  }

  /** Before a power loss: adopts real entries the model has not seen, so none is wiped. */
  synchronized void adoptUnknownEntries() throws IOException {
    adoptUnknownEntries(root);
  }

  private void adoptUnknownEntries(DirNode dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> stream = real.newDirectoryStream(realPath(dir), p -> true)) {
      for (Path path : stream) {
        names.add(path.getFileName().toString());
      }
    } catch (@SuppressWarnings("unused") NoSuchFileException | NotDirectoryException e) {
      return; // replaced behind the model's back; nothing to adopt
    }
    for (String name : names) {
      child(dir, name);
    }
    for (Node node : List.copyOf(dir.entries.values())) {
      if (node instanceof DirNode sub) {
        adoptUnknownEntries(sub);
      }
    }
  }

  /**
   * Chooses which pending entry operations a power loss keeps and returns the resulting tree: for
   * every directory reachable from the root, its entries, in walk order.
   */
  synchronized LinkedHashMap<DirNode, TreeMap<String, Node>> crashTree(
      Random random, List<String> report) {
    Map<DirNode, List<EntryOp>> perDir = new LinkedHashMap<>();
    Map<EntryOp, Map<DirNode, Integer>> positions = new IdentityHashMap<>();
    for (EntryOp op : pending) {
      for (DirNode dir : op.otherDir() == null ? List.of(op.dir) : List.of(op.dir, op.toDir)) {
        List<EntryOp> ops = perDir.computeIfAbsent(dir, d -> new ArrayList<>());
        positions.computeIfAbsent(op, o -> new HashMap<>()).put(dir, ops.size());
        ops.add(op);
      }
    }
    int mode = random.nextInt(4); // 0: revert all unsynced, 1: keep all, else a random prefix
    Map<DirNode, Integer> cuts = new HashMap<>();
    for (Map.Entry<DirNode, List<EntryOp>> entry : perDir.entrySet()) {
      List<EntryOp> ops = entry.getValue();
      int min = 0;
      while (min < ops.size() && ops.get(min).durable) {
        min++;
      }
      int cut =
          switch (mode) {
            case 0 -> min;
            case 1 -> ops.size();
            default -> min + random.nextInt(ops.size() - min + 1);
          };
      cuts.put(entry.getKey(), cut);
    }
    // A rename between directories is kept only where both cuts include it; shorten until so.
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Map.Entry<DirNode, List<EntryOp>> entry : perDir.entrySet()) {
        List<EntryOp> ops = entry.getValue();
        for (int i = 0; i < cuts.get(entry.getKey()); i++) {
          if (kept(ops.get(i), positions, cuts) == false) {
            cuts.put(entry.getKey(), i);
            changed = true;
            break;
          }
        }
      }
    }
    Map<DirNode, TreeMap<String, Node>> state = new HashMap<>();
    List<String> kept = new ArrayList<>();
    List<String> reverted = new ArrayList<>();
    for (EntryOp op : pending) {
      if (kept(op, positions, cuts)) {
        op.applyTo(d -> state.computeIfAbsent(d, k -> new TreeMap<>(k.durableEntries)));
        if (op.durable == false) {
          kept.add(op.description);
        }
      } else {
        reverted.add(op.description);
      }
    }
    if (kept.isEmpty() == false || reverted.isEmpty() == false) {
      report.add("entries kept: " + summary(kept) + "; reverted: " + summary(reverted));
    }
    LinkedHashMap<DirNode, TreeMap<String, Node>> tree = new LinkedHashMap<>();
    walk(root, state, tree);
    return tree;
  }

  private static boolean kept(
      EntryOp op, Map<EntryOp, Map<DirNode, Integer>> positions, Map<DirNode, Integer> cuts) {
    for (Map.Entry<DirNode, Integer> position : positions.get(op).entrySet()) {
      if (position.getValue() >= cuts.get(position.getKey())) {
        return false;
      }
    }
    return true;
  }

  private static void walk(
      DirNode dir,
      Map<DirNode, TreeMap<String, Node>> state,
      LinkedHashMap<DirNode, TreeMap<String, Node>> tree) {
    if (tree.containsKey(dir)) {
      return;
    }
    TreeMap<String, Node> entries = state.getOrDefault(dir, new TreeMap<>(dir.durableEntries));
    tree.put(dir, entries);
    for (Node node : entries.values()) {
      if (node instanceof DirNode sub) {
        walk(sub, state, tree);
      }
    }
  }

  private static String summary(List<String> descriptions) {
    if (descriptions.isEmpty()) {
      return "none";
    }
    int shown = Math.min(descriptions.size(), 12);
    String list = String.join(", ", descriptions.subList(0, shown));
    return descriptions.size() > shown
        ? list + " and " + (descriptions.size() - shown) + " more"
        : list;
  }

  /** After a power loss: {@code tree} is what is on disk, all of it durable. */
  synchronized void reset(Map<DirNode, TreeMap<String, Node>> tree) {
    for (Map.Entry<DirNode, TreeMap<String, Node>> entry : tree.entrySet()) {
      DirNode dir = entry.getKey();
      dir.entries.clear();
      dir.entries.putAll(entry.getValue());
      dir.durableEntries.clear();
      dir.durableEntries.putAll(entry.getValue());
      for (Map.Entry<String, Node> child : entry.getValue().entrySet()) {
        if (child.getValue() instanceof DirNode sub) {
          sub.parent = dir;
          sub.name = child.getKey();
        }
      }
    }
    pending.clear();
  }

  private Node adopt(DirNode dir, String name) throws IOException {
    Path path = realPath(dir, name);
    BasicFileAttributes attributes;
    try {
      attributes = real.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (@SuppressWarnings("unused") NoSuchFileException | NotDirectoryException e) {
      return null;
    }
    Node node;
    if (attributes.isDirectory()) {
      node = new DirNode(nextId++, dir, name);
    } else if (attributes.isRegularFile()) {
      node = new FileNode(nextId++, readImage(path));
    } else {
      throw new UnsupportedOperationException(
          "only regular files and directories can be simulated: " + path);
    }
    dir.entries.put(name, node);
    dir.durableEntries.put(name, node);
    return node;
  }

  private FileImage readImage(Path path) throws IOException {
    FileImage image = new FileImage();
    try (FileChannel channel = real.newFileChannel(path, Set.of(StandardOpenOption.READ))) {
      ByteBuffer buffer = ByteBuffer.allocate(FileImage.PAGE_SIZE);
      long position = 0;
      int n;
      while ((n = channel.read(buffer.clear(), position)) > 0) {
        image.write(position, buffer.array(), 0, n);
        position += n;
      }
      image.setLength(channel.size());
    }
    return image;
  }
}
