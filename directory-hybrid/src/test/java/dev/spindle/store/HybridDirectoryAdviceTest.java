package dev.spindle.store;

import static dev.spindle.store.TestFiles.writeFile;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.codecs.CompoundDirectory;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.store.FileDataHint;
import org.apache.lucene.store.FileTypeHint;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.store.MergeInfo;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.Version;

/**
 * The read advice {@link HybridDirectory} gives each mapped file, per kind of file and kernel page
 * reclaim, the detection of the multi-generational LRU that chooses between the two tables, and
 * which mapped files prefetch ahead of their reads.
 */
public class HybridDirectoryAdviceTest extends LuceneTestCase {

  private static final IOContext MERGE = IOContext.merge(new MergeInfo(10, 1000, false, 1));
  private static final IOContext FLUSH = IOContext.flush(new FlushInfo(10, 1000));

  /** The hints Lucene's stored fields reader opens its data file with. */
  private static final IOContext STORED_FIELDS_CONTEXT =
      IOContext.DEFAULT.withHints(FileTypeHint.DATA, DataAccessHint.RANDOM);

  private static final Set<String> SMALL_INDEXES = Set.of("tip", "fdx", "tvx", "kdi");
  private static final Set<String> PER_DOCUMENT = Set.of("fdt", "tvd");
  private static final Set<String> VECTORS = Set.of("vec", "vex", "veq", "veb");
  private static final Set<String> STRUCTURES =
      Set.of(
          "tim", "doc", "pos", "pay", "dvd", "dvp", "dvs", "nvd", "kdd", "vec", "vex", "veq",
          "veb");

  public void testEveryDefaultMappedExtensionHasAKind() {
    for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
      FileAccess access = FileAccess.of(extension, IOContext.DEFAULT);
      assertNotEquals(extension, FileAccess.OTHER, access);
      assertNotEquals(extension, FileAccess.METADATA, access);
    }
  }

  public void testAdviceWithTheClassicLru() {
    FileRouting routing = routing(PageReclaim.LRU);
    for (String extension : SMALL_INDEXES) {
      assertEquals(extension, ReadAdvice.NORMAL, advice(routing, extension));
    }
    for (String extension : PER_DOCUMENT) {
      assertEquals(extension, ReadAdvice.RANDOM, advice(routing, extension));
    }
    for (String extension : STRUCTURES) {
      assertEquals(extension, ReadAdvice.RANDOM, advice(routing, extension));
    }
    assertEquals(ReadAdvice.RANDOM, advice(routing, "cfs"));
  }

  /**
   * With the multi-generational LRU, only per-document data keeps {@code RANDOM}: every structure
   * that must stay cached, vectors included (the case of apache/lucene#14408), is {@code NORMAL}.
   */
  public void testAdviceWithTheMultiGenerationalLru() {
    FileRouting routing = routing(PageReclaim.MULTI_GEN_LRU);
    for (String extension : SMALL_INDEXES) {
      assertEquals(extension, ReadAdvice.NORMAL, advice(routing, extension));
    }
    for (String extension : PER_DOCUMENT) {
      assertEquals(extension, ReadAdvice.RANDOM, advice(routing, extension));
    }
    for (String extension : STRUCTURES) {
      assertEquals(extension, ReadAdvice.NORMAL, advice(routing, extension));
    }
    assertEquals(ReadAdvice.NORMAL, advice(routing, "cfs"));
  }

  public void testMergesAndFlushesReadSequentiallyWhateverTheKind() {
    FileRouting routing = routing(randomReclaim());
    for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
      String name = "_0." + extension;
      assertEquals(name, ReadAdvice.SEQUENTIAL, routing.readAdvice(name, MERGE));
      assertEquals(name, ReadAdvice.SEQUENTIAL, routing.readAdvice(name, FLUSH));
      IOContext mergeSlice = new InnerFileHint(name).addTo(MERGE);
      assertEquals(name, ReadAdvice.SEQUENTIAL, routing.readAdvice("_0.cfs", mergeSlice));
    }
  }

  /**
   * Except the reads a codec says are random: a merge builds the new segment's vector graph by
   * scoring vectors of the files it just wrote, in graph order, and read-ahead there would read
   * megabytes around each vector.
   */
  public void testMergeReadsThatTheCodecCallsRandomAreNotReadAhead() {
    FileRouting routing = routing(randomReclaim());
    for (IOContext streamed : List.of(MERGE, FLUSH)) {
      IOContext random =
          streamed.withHints(FileTypeHint.DATA, FileDataHint.KNN_VECTORS, DataAccessHint.RANDOM);
      // Older releases drop hints added to a merge's or a flush's context.
      boolean carried = random.hints().contains(DataAccessHint.RANDOM);
      if (Version.LATEST.onOrAfter(Version.fromBits(10, 6, 0))) {
        assertTrue(streamed + " carries the codec's hints", carried);
      }
      for (String name : List.of("_0_Lucene99FlatVectorsFormat_0.vec", "_0.veq", "_0.xyz")) {
        assertEquals(
            name,
            carried ? ReadAdvice.RANDOM : ReadAdvice.SEQUENTIAL,
            routing.readAdvice(name, random));
        assertEquals(name, ReadAdvice.SEQUENTIAL, routing.readAdvice(name, streamed));
      }
    }
  }

  public void testSliceOfACompoundFileIsAdvisedAsItsInnerFile() {
    PageReclaim reclaim = randomReclaim();
    FileRouting routing = routing(reclaim);
    for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
      String inner = "_3_Lucene103_0." + extension;
      IOContext slice = new InnerFileHint(inner).addTo(randomSearchContext());
      assertEquals(
          inner,
          FileAccess.of(extension, IOContext.DEFAULT).advice(reclaim),
          routing.readAdvice("_3.cfs", slice));
    }
    // Metadata inside a compound file is read once at open: only the bytes it needs.
    IOContext metadata = new InnerFileHint("_3.fnm").addTo(IOContext.READONCE);
    assertEquals(ReadAdvice.RANDOM, routing.readAdvice("_3.cfs", metadata));
    assertEquals("_3.fnm", InnerFileHint.routedName("_3.cfs", metadata));
    assertEquals("_3.cfs", InnerFileHint.routedName("_3.cfs", IOContext.READONCE));
  }

  public void testUnknownExtensionsAreClassifiedByTheirHints() {
    FileRouting lru = routing(PageReclaim.LRU);
    FileRouting mglru = routing(PageReclaim.MULTI_GEN_LRU);
    IOContext index = IOContext.DEFAULT.withHints(FileTypeHint.INDEX);
    IOContext perDocument = IOContext.DEFAULT.withHints(FileTypeHint.DATA, DataAccessHint.RANDOM);
    IOContext data = IOContext.DEFAULT.withHints(FileTypeHint.DATA);
    IOContext postings = IOContext.DEFAULT.withHints(FileTypeHint.DATA, FileDataHint.POSTINGS);
    IOContext vectors =
        IOContext.DEFAULT.withHints(
            FileTypeHint.DATA, FileDataHint.KNN_VECTORS, DataAccessHint.RANDOM);
    for (FileRouting routing : List.of(lru, mglru)) {
      assertEquals(ReadAdvice.NORMAL, routing.readAdvice("_0.xyz", index));
      assertEquals(ReadAdvice.RANDOM, routing.readAdvice("_0.xyz", perDocument));
      assertEquals(ReadAdvice.NORMAL, routing.readAdvice("_0.xyz", IOContext.DEFAULT));
      assertEquals(ReadAdvice.NORMAL, routing.readAdvice("no_extension", IOContext.DEFAULT));
    }
    assertEquals(ReadAdvice.RANDOM, lru.readAdvice("_0.xyz", data));
    assertEquals(ReadAdvice.RANDOM, lru.readAdvice("_0.xyz", postings));
    assertEquals(ReadAdvice.RANDOM, lru.readAdvice("_0.xyz", vectors));
    assertEquals(ReadAdvice.NORMAL, mglru.readAdvice("_0.xyz", data));
    assertEquals(ReadAdvice.NORMAL, mglru.readAdvice("_0.xyz", postings));
    // A codec asks for RANDOM on vectors; with the multi-generational LRU that would evict them
    // before anything else.
    assertEquals(ReadAdvice.NORMAL, mglru.readAdvice("_0.xyz", vectors));
  }

  public void testConfiguredAdviceOverridesTheKinds() {
    ReadAdvice forTim = randomAdvice();
    ReadAdvice forTheRest = randomAdvice();
    FileRouting routing =
        new FileRouting(
            HybridDirectory.DEFAULT_MMAP_EXTENSIONS,
            Map.of("tim", forTim),
            Optional.of(forTheRest),
            randomReclaim(),
            Set.of(),
            random().nextBoolean());
    assertEquals(forTim, routing.readAdvice("_0_Lucene103_0.tim", randomSearchContext()));
    IOContext timSlice = new InnerFileHint("_0_Lucene103_0.tim").addTo(randomSearchContext());
    assertEquals(forTim, routing.readAdvice("_0.cfs", timSlice));
    for (String extension : List.of("fdt", "tip", "doc", "cfs")) {
      assertEquals(forTheRest, routing.readAdvice("_0." + extension, randomSearchContext()));
    }
  }

  public void testLruGenEnabledParsing() {
    assertTrue(PageReclaim.parseLruGenEnabled("0x0007\n"));
    assertTrue(PageReclaim.parseLruGenEnabled("0x0001"));
    assertTrue(PageReclaim.parseLruGenEnabled("0x000f"));
    assertTrue(PageReclaim.parseLruGenEnabled("y"));
    assertFalse(PageReclaim.parseLruGenEnabled("0x0000\n"));
    // Only the lowest bit is the main switch; the others tune page table walks.
    assertFalse(PageReclaim.parseLruGenEnabled("0x0006"));
    assertFalse(PageReclaim.parseLruGenEnabled("n"));
    assertFalse(PageReclaim.parseLruGenEnabled(""));
    assertFalse(PageReclaim.parseLruGenEnabled("0xzz"));
  }

  public void testDetectionReadsTheKernelSwitch() throws IOException {
    Path mm = createTempDir();
    Path enabled = mm.resolve("lru_gen").resolve("enabled");
    // A visible /sys/kernel/mm without lru_gen: a kernel without the multi-generational LRU.
    assertEquals(PageReclaim.LRU, PageReclaim.detect(enabled, mm, true));

    Files.createDirectories(enabled.getParent());
    Files.writeString(enabled, "0x0007\n", StandardCharsets.US_ASCII);
    assertEquals(PageReclaim.MULTI_GEN_LRU, PageReclaim.detect(enabled, mm, true));
    Files.writeString(enabled, "0x0000\n", StandardCharsets.US_ASCII);
    assertEquals(PageReclaim.LRU, PageReclaim.detect(enabled, mm, true));
    // Unreadable: a folder where the file should be, in a visible /sys/kernel/mm.
    assertEquals(PageReclaim.LRU, PageReclaim.detect(enabled.getParent(), mm, true));
  }

  /**
   * A hidden /sys on Linux cannot tell the kernels apart: the classic LRU's table is chosen, whose
   * worst case on the other kernel is the milder (see {@link PageReclaim#UNKNOWN}).
   */
  public void testHiddenSysIsUnknownOnLinuxAndGetsTheAdviceSafeOnBoth() throws IOException {
    Path hidden = createTempDir().resolve("mm");
    Path enabled = hidden.resolve("lru_gen").resolve("enabled");
    assertEquals(PageReclaim.UNKNOWN, PageReclaim.detect(enabled, hidden, true));
    // Another operating system has no multi-generational LRU.
    assertEquals(PageReclaim.LRU, PageReclaim.detect(enabled, hidden, false));

    FileRouting unknown = routing(PageReclaim.UNKNOWN);
    FileRouting lru = routing(PageReclaim.LRU);
    for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
      assertEquals(extension, advice(lru, extension), advice(unknown, extension));
    }
    try (HybridDirectory dir =
        HybridDirectory.builder(createTempDir()).pageReclaim(PageReclaim.UNKNOWN).build()) {
      assertEquals(PageReclaim.UNKNOWN, dir.stats().pageReclaim());
      assertTrue(dir.stats().toString(), dir.stats().toString().contains("pageReclaim=UNKNOWN"));
    }
  }

  public void testBuilderTakesAnExplicitPageReclaim() throws IOException {
    PageReclaim reclaim = randomReclaim();
    try (HybridDirectory dir =
        HybridDirectory.builder(createTempDir()).pageReclaim(reclaim).build()) {
      assertEquals(reclaim, dir.getPageReclaim());
      assertTrue(dir.toString(), dir.toString().contains(reclaim.toString()));
    }
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      assertEquals(PageReclaim.detect(), dir.getPageReclaim());
    }
    expectThrows(
        NullPointerException.class,
        () -> HybridDirectory.builder(createTempDir()).pageReclaim(null));
  }

  /**
   * The advice reaches the kernel: the mapping of each file carries it ({@link KernelAdvice}). On
   * Lucene 10.6 and later, {@link IndexInput#isEfficientFor} agrees: an input advised {@code
   * RANDOM} is not efficient for a merge, which wants {@code SEQUENTIAL}, whereas a {@code NORMAL}
   * one is efficient for anything.
   */
  public void testMappedFilesCarryTheirAdvice() throws IOException {
    assumeTrue("needs madvise", MMapDirectory.supportsMadvise());
    assumeTrue("needs /proc/self/smaps", KernelAdvice.available());
    for (PageReclaim reclaim : PageReclaim.values()) {
      try (HybridDirectory dir =
          HybridDirectory.builder(createTempDir()).pageReclaim(reclaim).build()) {
        for (String extension : List.of("tim", "tip", "fdt", "doc")) {
          String name = "_0_Lucene103_0." + extension;
          writeFile(dir, name, 3 * 4096 + random().nextInt(4096));
          ReadAdvice expected = FileAccess.of(extension, IOContext.DEFAULT).advice(reclaim);
          try (IndexInput in = dir.openInput(name, randomSearchContext())) {
            Path file = dir.getDirectory().resolve(name);
            assertEquals(reclaim + " " + name, expected, KernelAdvice.of(file, in.length() / 2));
            if (hasIsEfficientFor()) {
              assertEquals(
                  reclaim + " " + name, expected != ReadAdvice.RANDOM, in.isEfficientFor(MERGE));
            }
          }
        }
      }
    }
  }

  /**
   * Slices of a real compound file get the advice of the files they hold. This is the path that
   * adds {@link InnerFileHint} to a slice's context on every supported Lucene release.
   */
  public void testCompoundFileSlicesCarryTheAdviceOfTheirInnerFiles() throws IOException {
    assumeTrue("needs madvise", MMapDirectory.supportsMadvise());
    assumeTrue("needs /proc/self/smaps", KernelAdvice.available());
    for (PageReclaim reclaim : PageReclaim.values()) {
      try (HybridDirectory dir =
          HybridDirectory.builder(createTempDir()).pageReclaim(reclaim).build()) {
        SegmentCommitInfo segment = writeCompoundSegment(dir);
        String cfsName = IndexFileNames.segmentFileName(segment.info.name, "", "cfs");
        Path cfs = dir.getDirectory().resolve(cfsName);
        byte[] compoundBytes = Files.readAllBytes(cfs);
        try (CompoundDirectory compound =
            segment.info.getCodec().compoundFormat().getCompoundReader(dir, segment.info)) {
          int checked = 0;
          for (String inner : compound.listAll()) {
            // A slice shorter than a page shares its pages with its neighbours: Lucene does not
            // advise it.
            if (compound.fileLength(inner) < 2 * 4096) {
              continue;
            }
            String extension = FileRouting.extension(inner);
            ReadAdvice expected = FileAccess.of(extension, IOContext.DEFAULT).advice(reclaim);
            if (expected == ReadAdvice.NORMAL) {
              // Lucene leaves a slice that asks for NORMAL with the compound file's advice.
              expected = FileAccess.COMPOUND.advice(reclaim);
            }
            try (IndexInput slice = compound.openInput(inner, randomSearchContext())) {
              long start = offsetIn(compoundBytes, slice);
              // The page at the middle of a slice of two pages or more lies wholly inside it.
              assertEquals(
                  reclaim + " " + inner,
                  expected,
                  KernelAdvice.of(cfs, start + slice.length() / 2));
              if (hasIsEfficientFor()) {
                assertEquals(
                    reclaim + " " + inner,
                    expected != ReadAdvice.RANDOM,
                    slice.isEfficientFor(MERGE));
              }
            }
            checked++;
          }
          assertTrue("the segment has large enough fdt and tim slices", checked >= 2);
        }
      }
    }
  }

  private static boolean hasIsEfficientFor() {
    return LuceneSupport.MISSING_FEATURES.contains(LuceneSupport.IS_EFFICIENT_FOR) == false;
  }

  /** Where the bytes of {@code slice} lie in the compound file, which holds them exactly once. */
  private static long offsetIn(byte[] compound, IndexInput slice) throws IOException {
    byte[] bytes = new byte[Math.toIntExact(slice.length())];
    slice.seek(0);
    slice.readBytes(bytes, 0, bytes.length);
    int found = -1;
    for (int i = 0; i + bytes.length <= compound.length; i++) {
      if (Arrays.equals(compound, i, i + bytes.length, bytes, 0, bytes.length)) {
        assertEquals("the slice's bytes occur once in the compound file", -1, found);
        found = i;
      }
    }
    assertTrue("the slice's bytes occur in the compound file", found >= 0);
    return found;
  }

  public void testOnlyPerDocumentFilesClipPrefetchesAndOnlyOutsideMerges() {
    FileRouting routing = routing(randomReclaim());
    for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
      String name = "_0_Lucene103_0." + extension;
      boolean perDocument = PER_DOCUMENT.contains(extension);
      assertEquals(name, perDocument, routing.clipsPrefetch(name, IOContext.DEFAULT));
      assertFalse(name, routing.clipsPrefetch(name, MERGE));
      assertFalse(name, routing.clipsPrefetch(name, FLUSH));
      assertFalse(name, routing.clipsPrefetch(name, IOContext.READONCE));
      IOContext slice = new InnerFileHint(name).addTo(IOContext.DEFAULT);
      assertEquals(name, perDocument, routing.clipsPrefetch("_0.cfs", slice));
    }
    IOContext perDocumentHints =
        IOContext.DEFAULT.withHints(FileTypeHint.DATA, DataAccessHint.RANDOM);
    assertTrue(routing.clipsPrefetch("_0.xyz", perDocumentHints));
    assertFalse(routing.clipsPrefetch("_0.xyz", IOContext.DEFAULT));
    // A merge's temporary file read at random is not per-document data, whatever its hints say.
    String temp = "_0_Lucene104ScalarQuantizedVectorsFormat_0_queries_1.tmp";
    assertFalse(routing.clipsPrefetch(temp, perDocumentHints));
    assertFalse(routing.prefetchesThroughPool(temp, perDocumentHints));
  }

  /**
   * With a pool, as by default, stored fields and term vectors send their prefetches there; every
   * other file, raw vectors included, stays Lucene's input, a {@link MemorySegmentAccessInput}.
   * Without a pool, every clone and slice codecs read is Lucene's mapped input itself, with nothing
   * in between. With the benchmark seam that pools every search file, every file but the vector
   * graph and quantized vectors does.
   */
  public void testWhichClonesAreWrapped() throws IOException {
    boolean everyFile = random().nextBoolean();
    int byDefault = -1;
    for (int configured : new int[] {byDefault, 0, 1 + random().nextInt(4)}) {
      HybridDirectory.Builder builder = HybridDirectory.builder(createTempDir());
      if (configured != byDefault) {
        builder.prefetchThreads(configured);
      }
      int threads = configured == byDefault ? HybridDirectory.DEFAULT_PREFETCH_THREADS : configured;
      if (everyFile) {
        builder.poolEverySearchFile();
      }
      try (HybridDirectory dir = builder.build()) {
        for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
          String name = "_0_Lucene103_0." + extension;
          writeFile(dir, name, 3 * 4096 + random().nextInt(4096));
          boolean pooled =
              PER_DOCUMENT.contains(extension)
                  || (everyFile && VECTORS.contains(extension) == false);
          boolean expected = threads > 0 && pooled;
          try (IndexInput in = dir.openInput(name, IOContext.DEFAULT)) {
            IndexInput clone = in.clone();
            IndexInput slice = in.slice("s", 100, in.length() - 100);
            String what = name + " with " + threads + " prefetch threads";
            assertEquals(what, expected, TestFiles.seesPrefetches(clone));
            assertEquals(what, expected, TestFiles.seesPrefetches(slice));
            assertEquals(what, expected == false, clone instanceof MemorySegmentAccessInput);
            assertEquals(what, expected == false, slice instanceof MemorySegmentAccessInput);
            clone.seek(in.length() - 1);
            assertEquals((byte) (in.length() - 1), clone.readByte());
            slice.seek(slice.length() - 1);
            assertEquals((byte) (in.length() - 1), slice.readByte());
          }
          try (IndexInput in = dir.openInput(name, MERGE)) {
            assertFalse(name, TestFiles.seesPrefetches(in.clone()));
          }
        }
      }
    }
  }

  /**
   * A real segment, compound or not, read through clipping inputs: stored fields inside a compound
   * file clip too, and every document, prefetched or not, reads back whole.
   */
  public void testStoredFieldsReadBackThroughClippingInputs() throws IOException {
    assumeTrue("clipping needs madvise", MMapDirectory.supportsMadvise());
    HybridDirectory.Builder builder = HybridDirectory.builder(createTempDir());
    if (random().nextBoolean()) {
      builder
          .prefetchThreads(1 + random().nextInt(4))
          .prefetchQueueCapacity(1 + random().nextInt(8));
    }
    boolean clipping = random().nextBoolean();
    if (clipping) {
      builder.perDocumentPrefetchWindow(1 + random().nextInt(16 << 10));
    }
    try (HybridDirectory dir = builder.build()) {
      boolean pooled = dir.stats().prefetchThreads() > 0;
      boolean compound = random().nextBoolean();
      List<byte[]> stored = new ArrayList<>();
      IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
      config.setUseCompoundFile(compound);
      config.setMergePolicy(NoMergePolicy.INSTANCE);
      config.setCodec(TestUtil.getDefaultCodec());
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        int docs = atLeast(2000);
        for (int i = 0; i < docs; i++) {
          byte[] value = new byte[random().nextInt(3000)];
          random().nextBytes(value);
          stored.add(value);
          Document doc = new Document();
          doc.add(new StoredField("value", value));
          writer.addDocument(doc);
        }
      }
      SegmentCommitInfo segment = SegmentInfos.readLatestCommit(dir).info(0);
      assertEquals(compound, segment.info.getUseCompoundFile());
      if (compound == false) {
        String fdt = IndexFileNames.segmentFileName(segment.info.name, "", "fdt");
        try (IndexInput in = dir.openInput(fdt, STORED_FIELDS_CONTEXT)) {
          assertEquals(fdt, pooled || clipping, TestFiles.seesPrefetches(in.clone()));
        }
      } else {
        try (CompoundDirectory cfs =
            segment.info.getCodec().compoundFormat().getCompoundReader(dir, segment.info)) {
          for (String inner : cfs.listAll()) {
            try (IndexInput slice = cfs.openInput(inner, randomSearchContext())) {
              String extension = FileRouting.extension(inner);
              boolean wrapped =
                  pooled
                      ? PER_DOCUMENT.contains(extension)
                      : clipping && PER_DOCUMENT.contains(extension);
              assertEquals(inner, wrapped, TestFiles.seesPrefetches(slice));
            }
          }
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        StoredFields storedFields = reader.storedFields();
        // Random order: every read is a jump, as for gets by id.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < stored.size(); i++) {
          order.add(i);
        }
        Collections.shuffle(order, random());
        for (int doc : order) {
          if (random().nextBoolean()) {
            storedFields.prefetch(doc);
          }
          BytesRef value = storedFields.document(doc).getBinaryValue("value");
          assertEquals(
              "doc " + doc, new BytesRef(stored.get(doc)), value == null ? new BytesRef() : value);
        }
      }
    }
  }

  private static SegmentCommitInfo writeCompoundSegment(HybridDirectory dir) throws IOException {
    IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
    config.setUseCompoundFile(true);
    config.setMergePolicy(NoMergePolicy.INSTANCE);
    config.setCodec(TestUtil.getDefaultCodec());
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int i = 0; i < 3000; i++) {
        Document doc = new Document();
        // Random ids and random bytes: a terms dictionary and stored fields of several pages.
        doc.add(
            new StringField("id", TestUtil.randomSimpleString(random(), 12, 16), Field.Store.NO));
        byte[] stored = new byte[64];
        random().nextBytes(stored);
        doc.add(new StoredField("stored", stored));
        writer.addDocument(doc);
      }
      writer.commit();
    }
    SegmentCommitInfo segment = SegmentInfos.readLatestCommit(dir).info(0);
    assertTrue(segment.info.getUseCompoundFile());
    return segment;
  }

  private static FileRouting routing(PageReclaim reclaim) {
    return new FileRouting(
        HybridDirectory.DEFAULT_MMAP_EXTENSIONS,
        Map.of(),
        Optional.empty(),
        reclaim,
        Set.of(),
        random().nextBoolean());
  }

  private static ReadAdvice advice(FileRouting routing, String extension) {
    return routing.readAdvice("_0_Lucene103_0." + extension, randomSearchContext());
  }

  private static IOContext randomSearchContext() {
    List<IOContext> contexts =
        List.of(
            IOContext.DEFAULT,
            IOContext.DEFAULT.withHints(FileTypeHint.DATA),
            IOContext.DEFAULT.withHints(FileTypeHint.INDEX),
            IOContext.DEFAULT.withHints(FileTypeHint.DATA, DataAccessHint.RANDOM),
            IOContext.DEFAULT.withHints(FileTypeHint.DATA, FileDataHint.POSTINGS));
    return RandomPicks.randomFrom(random(), contexts);
  }

  private static PageReclaim randomReclaim() {
    return RandomPicks.randomFrom(random(), PageReclaim.values());
  }

  private static ReadAdvice randomAdvice() {
    return RandomPicks.randomFrom(random(), ReadAdvice.values());
  }
}
