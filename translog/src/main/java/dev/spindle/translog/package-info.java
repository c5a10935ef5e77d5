/**
 * A standalone, crash-safe write-ahead log whose appends never wait for fsync and whose
 * acknowledgements wait for one: {@link dev.spindle.translog.Translog}, opened with a {@link
 * dev.spindle.translog.TranslogConfig}. Depends on nothing but the JDK. The file format and the
 * order of every write, fsync, rename and delete are specified in the module's {@code FORMAT.md};
 * this page is the map of the code.
 *
 * <h2>Files</h2>
 *
 * A translog directory holds generation files {@code translog-<g>.tlog} (a header, then records,
 * then the zeros each file was prepared with), the live checkpoint {@code translog.ckp} (two slots
 * written in turn: {@code LiveCheckpointFile}), one sealed checkpoint {@code translog-<g>.ckp} per
 * generation no longer written, and {@code translog.lock}, whose operating-system lock ({@code
 * DirectoryLock}) keeps a second instance out. {@code TranslogHeader}, {@code RecordFormat} and
 * {@code Checkpoint} are the encodings; {@code TranslogFiles} the names and the file-system steps
 * whose order matters (preparing a generation, atomic replacement, directory fsyncs).
 *
 * <p>Every record carries a CRC32C chained to the previous record's and, for the first, to the
 * header's, which covers the translog's UUID, the generation and a nonce. A record therefore proves
 * itself after a crash, and {@code RecordReader} reads, past the checkpoint, exactly the records
 * that do.
 *
 * <h2>Writers</h2>
 *
 * {@code BufferedChannelWriter} moves the bytes of the generation being written, through direct
 * buffers and positional writes, into a file that {@code GenerationPreparer} wrote full of zeros
 * ahead of time, in the background, so that the fsync of an acknowledgement overwrites existing
 * blocks. It writes through a buffer rather than storing through a memory mapping, because every
 * fdatasync write-protects a mapping's pages again and writes back whole page-cache folios (its
 * class javadoc says more). {@code TranslogWriter} owns the append lock and everything it guards:
 * it encodes records into the current writer ({@code ActiveGeneration}), keeps sequence numbers and
 * statistics, writes full buffers out and waits for room outside that lock, and fails the translog
 * closed when an append breaks.
 *
 * <h2>Group commit</h2>
 *
 * {@code GroupCommit} shares one data fsync ({@code SyncRound}) between every waiter it covers: a
 * waiting thread leads a round when nobody does, on its own thread, and passes leadership to the
 * next waiting thread; rounds for futures of {@code syncAsync} run on the background executor
 * ({@code BackgroundWork}), never on the caller's thread. No checkpoint is written on this path:
 * {@code Checkpointer} writes one in the background now and then, vouching only for what a round
 * forced. {@code Roller} rolls full generations in the background; {@code Retention} trims. {@code
 * Tragedy} turns the first I/O failure, anywhere, into a closed translog, logged once.
 *
 * <h2>Recovery</h2>
 *
 * {@code RecoveryPlanner} reads the directory and decides, changing nothing, one decision per
 * piece: {@code GenerationRange} which generations to read, {@code GenerationBound} what the
 * checkpoint vouches for in each, {@code GenerationScan} where each ends, {@code CutRule} whether
 * the mode cuts at damage; the walk collects into {@code RecoveredGenerations}. It returns a {@code
 * RecoveryPlan}, which {@link dev.spindle.translog.Translog#open} carries out: seal the last
 * generation, prepare or adopt the next one, point the live checkpoint at it. The {@link
 * dev.spindle.translog.RecoveryMode} decides what damage inside a checkpointed range does; past the
 * checkpoint of the generation that was being written, the first record that does not prove itself
 * simply ends the log.
 *
 * <h2>Inspection and repair</h2>
 *
 * The API for tools lives in its own package, {@link dev.spindle.translog.inspect}, so that this
 * package's API stays what an application needs: {@link dev.spindle.translog.Translog}, its {@link
 * dev.spindle.translog.TranslogConfig}, the values it hands out ({@link
 * dev.spindle.translog.Location}, {@link dev.spindle.translog.Operation}, {@link
 * dev.spindle.translog.TranslogSnapshot}, {@link dev.spindle.translog.RetentionLock}, {@link
 * dev.spindle.translog.RecoveryReport}, {@link dev.spindle.translog.TranslogStats}), the two enums
 * and the exceptions. The inspect package declares what an inspection returns as interfaces; this
 * package implements them with the code recovery itself reads by, because an inspection that read
 * the files with code of its own could disagree with recovery. Java gives a neighbouring package no
 * access but public, so one class is public for the inspector alone: {@link
 * dev.spindle.translog.InspectAccess}, marked {@code @lucene.internal}, which hands out the
 * directory lock (through {@code DirectoryLock.obtain}, the only way to it), the planner's preview
 * and the readers. Behind it, {@code InspectedCheckpoint} and {@code InspectedGeneration} describe
 * what {@code GenerationFiles} found of a generation, read with the bound {@code GenerationBound}
 * decides for the planner too; {@code BoundedRecords} reads the records for recovery ({@code
 * GenerationScan}) and inspector alike; {@code PlannedRecovery} shows a {@code RecoveryPlan}, whose
 * list of the files it changes sits next to the code that changes them; {@code TranslogRepair}
 * backs those up and carries a cutting plan out.
 *
 * <h2>Locks</h2>
 *
 * {@code Roller} owns the roll lock and {@code TranslogWriter} the three below it; each is taken in
 * its owner's file only. Always taken in this order; a lock further down the table is never held
 * while taking one further up.
 *
 * <table>
 *   <caption>Lock order</caption>
 *   <tr><th>lock</th><th>held by</th><th>guards</th></tr>
 *   <tr><td>roll lock</td><td>a roll; close</td>
 *       <td>that one roll runs at a time, and close waits for it</td></tr>
 *   <tr><td>sync lock (read/write)</td><td>read: a sync round; write: a roll from its swap to
 *       its release, close</td>
 *       <td>the writer a round forces is not swapped or closed under it</td></tr>
 *   <tr><td>checkpoint lock</td><td>every live checkpoint write (roll, trim, hint, close)</td>
 *       <td>{@code LiveCheckpointFile}, the trim leftovers</td></tr>
 *   <tr><td>append lock</td><td>an append (encode and copy one record); a round noting the end;
 *       the swap of writers; shutting down after a failure</td>
 *       <td>{@code TranslogWriter}'s append state: the current writer, sequence numbers,
 *       statistics</td></tr>
 *   <tr><td>a writer's write lock, then its queue monitor</td><td>writing buffers out</td>
 *       <td>file order of positional writes; pending and spare buffers. The write lock is never
 *       held with the append lock</td></tr>
 *   <tr><td>leaves</td><td>briefly, holding nothing else to take</td>
 *       <td>{@code GroupCommit}'s lock (waiters, leadership), {@code Generations}' monitor,
 *       {@code Checkpointer}'s monitor, {@code GenerationPreparer}'s monitor, {@code
 *       BackgroundWork}'s monitor</td></tr>
 * </table>
 *
 * <p>No fsync is ever done under the append lock, and appends never wait for a lock that an fsync
 * is done under: they wait only for memory, while more than {@link
 * dev.spindle.translog.TranslogConfig#maxBufferedBytes()} bytes wait to be written.
 */
package dev.spindle.translog;
