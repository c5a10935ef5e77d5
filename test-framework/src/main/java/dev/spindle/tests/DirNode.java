package dev.spindle.tests;

import java.util.TreeMap;

/**
 * A directory of the simulated disk. Guarded by the {@link Namespace} that owns it; entries are
 * sorted so that every walk over them, and so every random choice made during one, is reproducible.
 */
final class DirNode extends Node {

  /** The entries as the running system sees them. */
  final TreeMap<String, Node> entries = new TreeMap<>();

  /**
   * The entries on disk before any pending entry operation: the state a power loss starts from
   * before it replays some of them.
   */
  final TreeMap<String, Node> durableEntries = new TreeMap<>();

  /** Where the directory is now, for reports and real paths; null for the root. */
  DirNode parent;

  String name;

  DirNode(int id, DirNode parent, String name) {
    super(id);
    this.parent = parent;
    this.name = name;
  }

  /** The path relative to the root, with '/' separators; empty for the root. */
  String relativePath() {
    if (parent == null) {
      return "";
    }
    String parentPath = parent.relativePath();
    return parentPath.isEmpty() ? name : parentPath + "/" + name;
  }

  String childPath(String child) {
    String path = relativePath();
    return path.isEmpty() ? child : path + "/" + child;
  }
}
