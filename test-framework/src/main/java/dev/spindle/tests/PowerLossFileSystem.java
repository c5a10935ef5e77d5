package dev.spindle.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.lucene.tests.mockfile.FilterFileSystem;

/**
 * A file system that simulates power loss: it wraps a real directory, tracks what the code under
 * test has made durable, and on {@link #powerLoss} leaves the directory in one of the states real
 * hardware could have left it in. It also injects I/O faults ({@link #injectFaults}).
 *
 * <p>Use {@link #root()} and only {@code java.nio.file} APIs ({@code Files.*}, {@code
 * FileChannel.open(path, ...)}) on paths below it; {@code Path.toFile()} and {@code java.io} escape
 * the simulation.
 *
 * <pre>{@code
 * try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
 *   Path dir = fs.root();
 *   // ... write, force, rename through dir ...
 *   String state = fs.powerLoss(random());
 *   // ... reopen from dir and check what survived; state explains what was chosen ...
 * }
 * }</pre>
 *
 * <h2>What counts as durable</h2>
 *
 * <ul>
 *   <li><b>File data and length</b> become durable by {@code FileChannel.force} (either argument)
 *       on any channel of that file, or by writing through a channel opened with {@code SYNC} or
 *       {@code DSYNC}. Durability belongs to the file (the inode), not to a name: it follows the
 *       file through renames. A truncate is a change of the file's length and becomes durable the
 *       same way.
 *   <li><b>Directory entries</b> (a create, a mkdir, a link, a delete, a rename with or without
 *       {@code ATOMIC_MOVE}) become durable by {@code force} on a channel opened on the directory
 *       that holds them: {@code FileChannel.open(dir, READ).force(true)}, which is what Lucene's
 *       {@code IOUtils.fsync(dir, true)} does. A rename between two directories touches both and is
 *       durable when either is fsynced. Entries of one directory become durable in order: fsyncing
 *       a directory also makes every earlier entry operation on it durable, and on any other
 *       directory that a durable rename touched, as a journal commit would.
 * </ul>
 *
 * <p>A file that was created, written and forced but whose directory was not fsynced may vanish
 * entirely; a file renamed over another may come back as the old one; a deleted file may come back,
 * with whatever data of it was durable.
 *
 * <h2>What a power loss chooses</h2>
 *
 * Every choice comes from the {@link Random} given to {@link #powerLoss}, so the same seed and the
 * same operations give the same state:
 *
 * <ul>
 *   <li>Per directory, which unsynced entry operations survive: none, all, or a random prefix of
 *       them, with renames between directories kept in both or in neither.
 *   <li>Per file, what happens to unsynced data: dropped, kept, or decided per block (of 512 B or 4
 *       KiB for the whole power loss) either as old-or-newest (writes reordered between forces) or
 *       as any intermediate version (torn writes). The length is the durable one, the current one,
 *       or any it had in between; bytes below the length that never reached the disk read as zeros.
 * </ul>
 *
 * <p>The returned report names every choice that mattered, for failure messages; {@link
 * #lastPowerLoss()} returns it again.
 *
 * <h2>Memory-mapped writes</h2>
 *
 * A store into a {@code MappedByteBuffer} bypasses any file system wrapper, and {@code
 * MappedByteBuffer.force()} is invisible to it. A memory-mapped writer works under the simulation
 * when it maps through {@code FileChannel.map(READ_WRITE, ...)} on a channel from this file system
 * and makes its writes durable with {@code FileChannel.force} on a channel of the same file (after
 * {@code MappedByteBuffer.force()}, which the real OS may need). The simulation then reads the
 * mapped region back: at each force every mapped page is made durable as it is, and at a power loss
 * every mapped block that changed since the last force is one more block that may or may not have
 * reached the disk. That read-back costs time proportional to the mapped size, so keep mappings
 * small in tests. On Java 22 and later the {@code Arena} overload of {@code map} is simulated the
 * same way: the multi-release jar's Java 22 classes implement it. On Java 21, where it is a preview
 * API, and wherever this module's classes are loaded from a folder rather than from its jar, it
 * throws {@link UnsupportedOperationException}. Lucene's {@code MMapDirectory} escapes the
 * simulation either way: it unwraps the path and maps the real file.
 *
 * <h2>Power off and on</h2>
 *
 * {@link #powerLoss} cuts and restores the power in one step. When other threads may still be
 * running the old code, use {@link #cutPower} and {@link #restorePower()} instead: while the power
 * is off every operation fails, so a thread of the "dead" process cannot create, rename or delete
 * files in the restarted state; restore once those threads have stopped. {@link #schedulePowerLoss}
 * cuts the power from inside the Nth following change, whichever thread makes it, and leaves it
 * off.
 *
 * <p>Channels opened before a power loss are dead: their operations throw {@link IOException},
 * closing them is allowed. Mappings made before it point at files that no longer exist.
 *
 * <h2>Thread-safety and cost</h2>
 *
 * All operations are thread-safe. A power loss waits for operations in flight and runs alone, so it
 * is atomic with respect to them. Writes to one file are serialized. The simulation keeps the
 * durable image of every file and the bytes of every unsynced write in memory, and rewrites the
 * whole directory tree at each power loss: it is meant for test-sized data. It never calls the real
 * {@code fsync}.
 *
 * <p>Not simulated: symbolic links, {@code DELETE_ON_CLOSE}, asynchronous channels, file attributes
 * (passed through, not rolled back).
 */
public final class PowerLossFileSystem extends FilterFileSystem {

  private final PowerLossProvider provider;
  private final Path root;
  private volatile boolean closed;

  /**
   * Wraps the directory {@code root}, whose current content counts as durable.
   *
   * @param root an existing directory, on any file system (Lucene's test file systems included)
   * @param seed seeds the outcomes of injected faults (how much a partial write writes, what a
   *     failed force left on disk)
   * @throws IllegalStateException if the Lucene on the classpath is not a 10.x release
   */
  public PowerLossFileSystem(Path root, long seed) {
    super(new PowerLossProvider(checkRoot(root), seed), root.getFileSystem());
    this.provider = (PowerLossProvider) parent;
    provider.attach(this);
    this.root = provider.wrapPath(provider.realRoot);
  }

  private static Path checkRoot(Path root) {
    LuceneSupport.ensureSupported();
    if (Files.isDirectory(root) == false) {
      throw new IllegalArgumentException("not a directory: " + root);
    }
    return root.toAbsolutePath().normalize();
  }

  /**
   * Returns the wrapped directory as a path of this file system.
   *
   * @return the root
   */
  public Path root() {
    return root;
  }

  /**
   * Cuts the power and restores it: the disk is left in a random state real hardware could have
   * left, channels opened before are dead, and the root can be reopened at once.
   *
   * @param random source of every choice
   * @return a report of the state chosen
   * @throws IOException if the real directory cannot be rewritten
   */
  public String powerLoss(Random random) throws IOException {
    String report = cutPower(random);
    restorePower();
    return report;
  }

  /**
   * Cuts the power and leaves it off: like {@link #powerLoss}, except that every operation fails
   * until {@link #restorePower()}. Cancels a scheduled power loss.
   *
   * @param random source of every choice
   * @return a report of the state chosen
   * @throws IOException if the real directory cannot be rewritten
   * @throws IllegalStateException if the power is already off
   */
  public String cutPower(Random random) throws IOException {
    ensureOpen();
    return provider.cutPower(random);
  }

  /** Restores the power after {@link #cutPower} or a scheduled power loss; harmless if on. */
  public void restorePower() {
    ensureOpen();
    provider.power.switchOn();
  }

  /**
   * Schedules a power loss just before the {@code changes}th following operation that changes the
   * disk (an open for writing, a write, truncate, force, mapping, create, rename, link or delete),
   * in whichever thread makes it. That operation throws an {@link IOException} and the power stays
   * off until {@link #restorePower()}. Replaces an earlier schedule.
   *
   * @param changes 1 for the next change
   * @param random draws the seed of the power loss now, so the state chosen does not depend on
   *     which thread triggers it
   */
  public void schedulePowerLoss(long changes, Random random) {
    if (changes < 1) {
      throw new IllegalArgumentException("changes must be at least 1, got " + changes);
    }
    ensureOpen();
    provider.power.schedule(changes, random.nextLong());
  }

  /**
   * Cancels a scheduled power loss. If another thread has already started it, waits until the power
   * is off. Afterwards the power goes off only through {@link #cutPower}, so ending a round is
   * {@code cancelScheduledPowerLoss()}, then {@code if (isPowerOn()) cutPower(random)}; checking
   * {@link #isPowerOn()} first races a cut in flight.
   *
   * @return whether one was still pending
   */
  public boolean cancelScheduledPowerLoss() {
    return provider.power.cancelSchedule();
  }

  /**
   * Returns whether the power is on.
   *
   * @return false between a cut and {@link #restorePower()}
   */
  public boolean isPowerOn() {
    return provider.power.isOn();
  }

  /**
   * Returns how many power losses happened so far.
   *
   * @return the count
   */
  public int powerLosses() {
    return provider.power.cuts();
  }

  /**
   * Returns the report of the last power loss, scheduled or not.
   *
   * @return the report, or null if there was none
   */
  public String lastPowerLoss() {
    return provider.lastPowerLoss();
  }

  /**
   * Installs the fault injector asked before each operation from now on; {@link
   * FaultInjector#none()} stops injecting. Injected faults are listed in the next power loss
   * report.
   *
   * @param injector the injector
   */
  public void injectFaults(FaultInjector injector) {
    provider.power.faults(java.util.Objects.requireNonNull(injector));
  }

  /**
   * Closes every channel still open and stops the simulation; the real directory keeps its current
   * content. Does not close the wrapped file system.
   */
  @Override
  public void close() throws IOException {
    if (closed == false) {
      closed = true;
      provider.power.close();
      provider.closeAll();
    }
  }

  @Override
  public boolean isOpen() {
    return closed == false;
  }

  private void ensureOpen() {
    if (closed) {
      throw new java.nio.file.ClosedFileSystemException();
    }
  }

  /** Operations that changed the disk so far; for sizing scheduled power losses. */
  long changes() {
    return provider.power.mutations();
  }

  /** Faults injected so far. */
  int faultsInjected() {
    return provider.power.faultsInjected();
  }

  @Override
  public String toString() {
    return "PowerLossFileSystem(" + provider.realRoot + ")";
  }
}
