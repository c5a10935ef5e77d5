package dev.spindle.tests;

import java.util.Map;
import java.util.function.Function;

/**
 * One change to directory entries that the running system has made but that may not be on disk: a
 * new name (create, mkdir, link), a removed name (delete), or a rename. It is durable once a
 * directory it touches has been fsynced since.
 */
final class EntryOp {

  enum Kind {
    LINK,
    UNLINK,
    RENAME
  }

  final Kind kind;
  final DirNode dir;
  final String name;

  /** For a rename: the target directory and name; null otherwise. */
  final DirNode toDir;

  final String toName;
  final Node node;

  /** What happened, with paths as they were then, for reports. */
  final String description;

  /** Guarded by the owning {@link Namespace}. */
  boolean durable;

  private EntryOp(
      Kind kind,
      DirNode dir,
      String name,
      DirNode toDir,
      String toName,
      Node node,
      String description) {
    this.kind = kind;
    this.dir = dir;
    this.name = name;
    this.toDir = toDir;
    this.toName = toName;
    this.node = node;
    this.description = description;
  }

  static EntryOp link(DirNode dir, String name, Node node, String verb) {
    return new EntryOp(Kind.LINK, dir, name, null, null, node, verb + " " + dir.childPath(name));
  }

  static EntryOp unlink(DirNode dir, String name, Node node) {
    return new EntryOp(Kind.UNLINK, dir, name, null, null, node, "delete " + dir.childPath(name));
  }

  static EntryOp rename(
      DirNode dir, String name, DirNode toDir, String toName, Node node, boolean replacing) {
    return new EntryOp(
        Kind.RENAME,
        dir,
        name,
        toDir,
        toName,
        node,
        "rename "
            + dir.childPath(name)
            + " -> "
            + toDir.childPath(toName)
            + (replacing ? " (replacing)" : ""));
  }

  boolean touches(DirNode directory) {
    return dir == directory || toDir == directory;
  }

  /** The other directory a rename touches, or null. */
  DirNode otherDir() {
    return toDir == dir ? null : toDir;
  }

  void applyTo(Function<DirNode, Map<String, Node>> entriesOf) {
    switch (kind) {
      case LINK -> entriesOf.apply(dir).put(name, node);
      case UNLINK -> entriesOf.apply(dir).remove(name);
      case RENAME -> {
        entriesOf.apply(dir).remove(name);
        entriesOf.apply(toDir).put(toName, node);
      }
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
