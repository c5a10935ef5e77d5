/**
 * A standalone, crash-safe write-ahead log whose appends never wait for fsync and whose
 * acknowledgements wait for one: {@link dev.spindle.translog.Translog}, opened with a {@link
 * dev.spindle.translog.TranslogConfig}. Depends on nothing but the JDK. The file format and the
 * order of every write, fsync, rename and delete are specified in the module's {@code FORMAT.md};
 * this page is the map of the code.
 *
 * <h2>Writing</h2>
 *
 * {@code TranslogWriter} is the writing side, and the one owner of the sync, checkpoint and append
 * locks: each section under them is one of its methods. An append encodes a record into the
 * generation being written ({@code ActiveGeneration}), whose {@code BufferedChannelWriter} copies
 * it into a direct buffer; full buffers are written to the file with positional writes outside the
 * append lock. The file was written full of zeros ahead of time by {@code GenerationPreparer}, so
 * the fsync of an acknowledgement overwrites existing blocks. {@code GroupCommit} shares one data
 * fsync between every waiter it covers: a waiting thread leads a round ({@code SyncRound}, whose
 * locked part is {@code TranslogWriter.syncRound}) when nobody does, and passes leadership on;
 * rounds for futures run on the background executor ({@code BackgroundWork}). Each record proves
 * itself after a crash (a CRC32C chained to the record before and to the file's header), so no
 * checkpoint is written on this path: {@code Checkpointer} writes one in the background now and
 * then. {@code Roller} rolls full generations in the background ({@code
 * TranslogWriter.swapAndSeal}); {@code Retention} keeps what snapshots and retention locks hold and
 * trims the rest ({@code TranslogWriter.deleteTrimmed}); {@code Tragedy} turns the first I/O
 * failure, anywhere, into a closed translog, logged once.
 *
 * <h2>Locks</h2>
 *
 * Each lock is taken in its owner's file only. Always in this order: a lock further down is never
 * held while taking one further up. No fsync is done under the append lock, and appends wait for no
 * lock an fsync is done under: only for memory, while more than {@link
 * dev.spindle.translog.TranslogConfig#maxBufferedBytes()} bytes wait to be written.
 *
 * <table>
 *   <caption>Lock order</caption>
 *   <tr><th>lock</th><th>owner</th><th>held by</th><th>guards</th></tr>
 *   <tr><td>roll lock</td><td>{@code Roller}</td><td>a roll; close's final round</td>
 *       <td>one roll at a time; none during or after the final round</td></tr>
 *   <tr><td>sync lock (read/write)</td><td>{@code TranslogWriter}</td><td>read: a sync round;
 *       write: a roll from its swap to its release, the final round</td>
 *       <td>the writer a round forces is not swapped or closed under it</td></tr>
 *   <tr><td>checkpoint lock</td><td>{@code TranslogWriter}</td><td>every checkpoint write (roll,
 *       trim, hint, close) and a trim's deletes</td>
 *       <td>{@code Checkpointer}: the checkpoint files, the leftovers of a crashed trim</td></tr>
 *   <tr><td>append lock</td><td>{@code TranslogWriter}</td><td>an append; noting the end for a
 *       round, roll or close; the swap; closing the writer after a failure</td>
 *       <td>the {@code ActiveGeneration}, sequence numbers, totals</td></tr>
 *   <tr><td>write lock, then queue monitor</td><td>{@code BufferedChannelWriter}</td>
 *       <td>writing buffers out (never with the append lock)</td>
 *       <td>file order of positional writes; pending and spare buffers</td></tr>
 *   <tr><td>leaves</td><td>each its own</td><td>briefly, taking nothing else</td>
 *       <td>{@code GroupCommit}'s lock, the monitors of {@code Generations}, {@code
 *       Checkpointer}, {@code GenerationPreparer}, {@code BackgroundWork}</td></tr>
 * </table>
 *
 * <h2>Files, and who reads them</h2>
 *
 * Every rule about the bytes on disk is read in one place, which recovery and the inspector both
 * call.
 *
 * <table>
 *   <caption>Files</caption>
 *   <tr><th>file</th><th>read by</th><th>written by</th></tr>
 *   <tr><td>names, and what belongs to a translog</td><td>{@code TranslogFiles} ({@code list},
 *       {@code isTranslogFile})</td><td>{@code TranslogFiles}: atomic replacement, preparation,
 *       deletes, directory fsyncs</td></tr>
 *   <tr><td>{@code translog.lock}</td><td>{@code DirectoryLock}, the only way to it</td>
 *       <td>{@code DirectoryLock}</td></tr>
 *   <tr><td>{@code translog.ckp}: two slots</td><td>{@code LiveCheckpointFile.readSlots}; which
 *       slot counts: {@code LiveCheckpointFile.choose}</td><td>{@code Checkpointer}, through
 *       {@code LiveCheckpointFile}</td></tr>
 *   <tr><td>{@code translog-<g>.ckp}: sealed</td><td>{@code Checkpoint.readSealed}; whether it
 *       vouches: {@code GenerationBound}</td><td>{@code Checkpointer.seal} (a roll), {@code
 *       RecoveryPlan.carryOut} (recovery)</td></tr>
 *   <tr><td>{@code translog-<g>.tlog}</td><td>header: {@code TranslogHeader}, whether it belongs:
 *       {@code GenerationScan.identityDamage}; records: {@code RecordReader}, bounded by {@code
 *       BoundedRecords}, counted by {@code GenerationScan.of}; durable ones for snapshots: {@code
 *       TranslogSnapshot}</td><td>{@code GenerationPreparer} (header, zeros), {@code
 *       BufferedChannelWriter} (records)</td></tr>
 * </table>
 *
 * <h2>Recovery and inspection</h2>
 *
 * {@code RecoveryPlanner} reads the directory and decides, changing nothing, one decision per
 * piece: {@code LiveCheckpointFile.choose} which slot, {@code GenerationRange} which generations,
 * {@code GenerationBound} what vouches for each, {@code GenerationScan} where each ends, {@code
 * CutRule} whether the {@link dev.spindle.translog.RecoveryMode} cuts at damage; the walk collects
 * into {@code RecoveredGenerations}. Past the checkpoint of the generation being written, the first
 * record that does not prove itself simply ends the log. The {@code RecoveryPlan} it returns is
 * carried out by {@link dev.spindle.translog.Translog#open}: seal the last generation, prepare or
 * adopt the next one, point the live checkpoint at it. The tools' API lives in {@link
 * dev.spindle.translog.inspect}, so that this package's API stays what an application needs; its
 * one door here is {@link dev.spindle.translog.InspectAccess} ({@code @lucene.internal}, public
 * because Java has no other access between packages). What it returns are views of recovery's own
 * readings, so an inspection cannot disagree with {@code Translog.open}: {@code PlannedRecovery}
 * shows a plan, with the files carrying it out changes, and {@code TranslogRepair} backs those up
 * and carries a cutting plan out.
 *
 * <h2>Shapes of a generation</h2>
 *
 * The tuple (generation, length, records, smallest and largest sequence number) has as many shapes
 * as the layers need, and no more. {@code Checkpoint} is the encoded one and, in memory, every
 * sealed generation ({@code Generations}) and every generation recovery keeps; {@code RecordStats}
 * is its records and their sequence number range. {@code GenerationScan} is what reading found,
 * which a checkpoint cannot say: where damage starts, how many records lie past the bound, why
 * reading ended. {@code ActiveGeneration} keeps the generation being written as plain fields, so an
 * append allocates nothing for them, and notes a {@code Checkpoint} when asked. The inspect
 * package's {@code CheckpointInfo}, {@code GenerationInfo} and {@code KeptGeneration} are public
 * interfaces, so that methods can be added for tools; they are implemented by views, {@code
 * InspectedCheckpoint} of a {@code Checkpoint.Counted}, {@code InspectedGeneration} of a {@code
 * GenerationScan}, {@code PlannedGeneration} of a kept {@code Checkpoint}, which copy no field.
 */
package dev.spindle.translog;
