/**
 * Randomized-testing support for Spindle components, built on Lucene's test framework: factories of
 * randomly configured Spindle components, a file system that simulates power loss and injects I/O
 * faults ({@link dev.spindle.tests.PowerLossFileSystem}), and a crash suite any write-ahead log can
 * plug into ({@link dev.spindle.tests.BaseWriteAheadLogTestCase}).
 *
 * <h2>Random components</h2>
 *
 * <p>{@link dev.spindle.tests.RandomHybridDirectory} and {@link
 * dev.spindle.tests.RandomTranslogConfig} draw every choice of a component's configuration from the
 * test's {@link java.util.Random}, so that a suite exercises more than the defaults and a failure
 * reproduces. {@link dev.spindle.tests.TranslogDamage} makes damaged copies of a closed translog,
 * one kind of damage at a time, for the translog's corruption fuzzer and for the tests of its
 * command-line tool alike. {@link dev.spindle.tests.QuietLogging} silences the loggers of a
 * component that a suite fails on purpose. {@code
 * dev.spindle.tests.index.RandomCompoundCapMergePolicy} and {@code
 * dev.spindle.tests.document.RandomKeywordFieldType} live with the modules they configure, whose
 * own tests use them, and are published as those modules' {@code tests} jars; this artifact depends
 * on both, so its users get them with it. (They cannot live here: the merge-policy and
 * keyword-field tests would then depend on this module, which depends on theirs.)
 *
 * <h2>The power-loss file system</h2>
 *
 * <p>{@link dev.spindle.tests.PowerLossFileSystem} is a {@link java.nio.file.FileSystem} over a
 * real directory. Its provider ({@code PowerLossProvider}) sends every operation to the real file
 * system and records it in a model of what is durable: {@code Namespace} holds the directory tree
 * as it is now and as it is on disk, with the entry operations ({@code EntryOp}) in between; {@code
 * FileNode} and {@code DirNode} are its files and directories; a {@code FileNode} keeps its durable
 * image ({@code FileImage}) and the unsynced changes ({@code DataEvent}) since. Channels ({@code
 * SimulatedFileChannel}, made by {@code SimulatedFileChannels}, which a multi-release variant
 * replaces on Java 22 and later; {@code DirectoryChannel} for directories) record what each write,
 * truncate and force changes. A power loss ({@code PowerCut}) chooses, from a {@link
 * java.util.Random}, one state real hardware could have left ({@code DataOutcome} per file), and
 * rewrites the real tree to it. {@code PowerState} is the gate every operation passes: it counts
 * operations for scheduled power losses, refuses them while the power is off, and asks the {@link
 * dev.spindle.tests.FaultInjector} whether to fail them ({@link dev.spindle.tests.FileOperation},
 * {@link dev.spindle.tests.InjectedFault}).
 *
 * <h2>The write-ahead log suite</h2>
 *
 * <p>{@link dev.spindle.tests.BaseWriteAheadLogTestCase} is what a log's test extends: it opens the
 * log on a power-loss file system and runs rounds through {@code WriteAheadLogChecker}, which
 * drives writers ({@code SuiteRecords} makes records that identify the append that made them), cuts
 * the power or injects faults, reopens the log, possibly through more power losses during recovery,
 * and checks every recovery with {@code RecoveryChecks}: every record was appended, the records
 * recovered before stay, each writer's records come once and in order, and nothing that a sync
 * acknowledged, or that lies below a record recovered after it, is lost.
 *
 * <h2>Thread-safety</h2>
 *
 * <p>The power-loss file system is thread-safe: {@code PowerState}'s read-write lock is taken for
 * reading by every operation and for writing by a power cut, which so runs alone and is atomic with
 * respect to them; then the {@code Namespace} monitor, then a {@code FileNode}'s monitor, in that
 * order. The random factories hold no state. The suite's checker is driven by one test thread;
 * writer threads touch only their own writer and are joined before anything reads them. Nothing
 * here is durable: the simulated disk lives in memory and in a temporary directory.
 *
 * <h2>What is public, and why</h2>
 *
 * <p>What a test of a Spindle component, or of a user's own log or directory, calls: the factories,
 * the file system with its fault-injection types, the suite and the damage maker. The model of the
 * disk and the suite's engine are package-private, so they can change with every release of the
 * framework.
 *
 * <h2>Lucene releases</h2>
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.0.0 and later 10.x releases, but
 * for {@link dev.spindle.tests.RandomHybridDirectory}, which needs what {@code HybridDirectory}
 * needs, 10.3.0; the package-private {@code LuceneSupport} checks the release when a {@link
 * dev.spindle.tests.PowerLossFileSystem} is created. The build runs the module's suites on the jars
 * of Lucene 10.0.0 and of 10.5.1, the release OpenSearch ships, as well as on 10.6.
 */
package dev.spindle.tests;
