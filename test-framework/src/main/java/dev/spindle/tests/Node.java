package dev.spindle.tests;

/** A file or directory of the simulated disk: what a directory entry points to (an inode). */
abstract sealed class Node permits FileNode, DirNode {

  /** Creation order within its file system; only for reports. */
  final int id;

  Node(int id) {
    this.id = id;
  }
}
