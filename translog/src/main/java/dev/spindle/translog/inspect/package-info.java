/**
 * Reading a translog directory without opening the translog, for tools and operators: {@link
 * dev.spindle.translog.inspect.TranslogInspector}, on which the {@code spindle-translog} command
 * line is built.
 *
 * <h2>The pieces</h2>
 *
 * {@link dev.spindle.translog.inspect.TranslogInspector} takes the directory's lock and answers
 * questions about it, each read from the files anew: the live checkpoint's two slots and each
 * sealed checkpoint ({@link dev.spindle.translog.inspect.CheckpointInfo}), every generation with
 * its place relative to the live checkpoint, its files, records and damage ({@link
 * dev.spindle.translog.inspect.GenerationInfo}), the records of one generation ({@link
 * dev.spindle.translog.inspect.GenerationRecords}), and what {@link
 * dev.spindle.translog.Translog#open} in a given {@link dev.spindle.translog.RecoveryMode} would do
 * ({@link dev.spindle.translog.inspect.RecoveryPreview}, listing each {@link
 * dev.spindle.translog.inspect.KeptGeneration}). A preview that cuts can be carried out by {@link
 * dev.spindle.translog.inspect.TranslogInspector#repair}, which first backs up every file it
 * deletes or overwrites.
 *
 * <h2>Why the answers are interfaces</h2>
 *
 * An inspection must read the files exactly as recovery does, or a tool would show one thing and
 * {@code Translog.open} do another. So the answers are not computed here: the translog's own
 * package implements these interfaces with the code its recovery runs (the planner, the rule that
 * bounds each generation, the record reader), and this package only declares them, holds the lock
 * and the state of one inspector (which previews a repair may still carry out). Java has no access
 * between two packages but public; the translog package therefore makes exactly one class public
 * for this package, {@link dev.spindle.translog.InspectAccess}, marked {@code @lucene.internal} and
 * not API, instead of making its planner, checkpoints and readers public. The directory lock is
 * taken through it too, and so, as for a translog, only through {@code DirectoryLock.obtain}: a
 * holder in this JVM is refused before the lock file is opened, so a refused inspector never
 * releases a translog's lock. The interfaces are implemented by the translog alone, and methods may
 * be added to them; a repair accepts only a preview its inspector made since its last repair.
 *
 * <h2>Thread-safety and writes</h2>
 *
 * An inspector serializes its calls; the descriptions it returns are immutable, and a {@link
 * dev.spindle.translog.inspect.GenerationRecords} is read by one thread and closed before the
 * inspector. Nothing but a repair writes to the directory, apart from creating the empty lock file
 * if it is missing. The whole API is {@code @lucene.experimental}: it follows the file format,
 * which {@code FORMAT.md} of the translog module specifies.
 */
package dev.spindle.translog.inspect;
