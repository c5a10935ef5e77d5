package dev.spindle.store;

import static dev.spindle.store.TestFiles.isMapped;
import static dev.spindle.store.TestFiles.writeFile;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.codecs.CompoundDirectory;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.store.MergeInfo;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.CommandLineUtil;
import org.apache.lucene.util.Version;

/** Which files {@link HybridDirectory} maps, which it reads through NIO, and what it counts. */
public class HybridDirectoryRoutingTest extends LuceneTestCase {

  /** Files Lucene 10 writes that are read through NIO by default. */
  private static final List<String> DEFAULT_NIO_FILES =
      List.of(
          "_0.fdm",
          "_0.tvm",
          "_0.si",
          "_0.fnm",
          "_0.cfe",
          "_0_Lucene103_0.tmd",
          "_0_Lucene103_0.psm",
          "_0_Lucene90_0.dvm",
          "_0.nvm",
          "_0.kdm",
          "_0_Lucene99HnswVectorsFormat_0.vem",
          "_0_Lucene99HnswVectorsFormat_0.vemf",
          "_0_Lucene99HnswVectorsFormat_0.vemq",
          "_0_1.liv",
          "segments_1");

  public void testDefaultMmapExtensionsArePinned() {
    assertEquals(
        Set.of(
            "cfs", "tim", "tip", "doc", "pos", "pay", "dvd", "dvp", "dvs", "nvd", "kdd", "kdi",
            "vec", "vex", "veq", "veb", "fdt", "fdx", "tvd", "tvx"),
        HybridDirectory.DEFAULT_MMAP_EXTENSIONS);
  }

  public void testEveryDefaultMmapExtensionIsMapped() throws IOException {
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      for (String extension : HybridDirectory.DEFAULT_MMAP_EXTENSIONS) {
        String name = "_0_Lucene103_0." + extension;
        writeFile(dir, name, 1 + random().nextInt(100));
        try (IndexInput in = dir.openInput(name, randomSearchContext())) {
          assertTrue(name + " should be mapped: " + in, isMapped(in));
        }
      }
      assertEquals(HybridDirectory.DEFAULT_MMAP_EXTENSIONS.size(), dir.stats().mappedOpens());
      assertEquals(0, dir.stats().nioOpens());
    }
  }

  public void testMetadataGoesThroughNio() throws IOException {
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      for (String name : DEFAULT_NIO_FILES) {
        writeFile(dir, name, 1 + random().nextInt(100));
        try (IndexInput in = dir.openInput(name, randomSearchContext())) {
          assertFalse(name + " should go through NIO: " + in, isMapped(in));
        }
      }
      assertEquals(0, dir.stats().mappedOpens());
      assertEquals(DEFAULT_NIO_FILES.size(), dir.stats().nioOpens());
    }
  }

  public void testReadOnceGoesThroughNioWhateverTheExtension() throws IOException {
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      writeFile(dir, "_0.tim", 64);
      try (IndexInput in = dir.openInput("_0.tim", IOContext.READONCE)) {
        assertFalse(isMapped(in));
      }
      try (IndexInput in = dir.openChecksumInput("_0.tim")) {
        assertEquals(64, in.length());
      }
      assertEquals(0, dir.stats().mappedOpens());
      assertEquals(2, dir.stats().nioOpens());
    }
  }

  public void testTempFilesAreRoutedByTheExtensionInsideTheirName() {
    assertEquals("fdt", FileRouting.extension("_0.fdt__1.tmp"));
    assertEquals("fdt", FileRouting.extension("_0_Lucene90_0.fdt.tmp"));
    assertEquals("tim", FileRouting.extension("_3_Lucene103_0.tim__a.tmp"));
    assertEquals("dvd", FileRouting.extension("_0_Lucene90_0.DVD_2.tmp"));
    assertEquals("tmp", FileRouting.extension("_0_bkd_sort_1.tmp"));
    assertEquals("", FileRouting.extension("segments_4"));
    assertEquals("cfs", FileRouting.extension("_1.cfs"));

    FileRouting routing = defaultRouting();
    assertEquals(FileRouting.Route.MMAP, routing.route("_0.tim__1.tmp", IOContext.DEFAULT));
    assertEquals(FileRouting.Route.NIO, routing.route("_0.fdm__1.tmp", IOContext.DEFAULT));
    assertEquals(FileRouting.Route.NIO, routing.route("_0_bkd_sort_1.tmp", IOContext.DEFAULT));
  }

  /**
   * A temporary file whose name holds no other extension is mapped when opened to be read at random
   * (a merge's quantized query vectors, read back once per score while it builds a graph), and read
   * through NIO otherwise; a file the configured set routes keeps its route either way.
   */
  public void testRandomTempFilesAreMapped() throws IOException {
    FileRouting routing = defaultRouting();
    IOContext random = IOContext.DEFAULT.withHints(DataAccessHint.RANDOM);
    String queries =
        "_0_Lucene104ScalarQuantizedVectorsFormat_0_queries_" + random().nextInt(9) + ".tmp";
    assertEquals(FileRouting.Route.MMAP, routing.route(queries, random));
    assertEquals(FileRouting.Route.NIO, routing.route(queries, IOContext.DEFAULT));
    assertEquals(FileRouting.Route.NIO, routing.route("_0.fdm__1.tmp", random));
    assertEquals(FileRouting.Route.NIO, routing.route("_0.fnm", random));
    try (HybridDirectory dir = HybridDirectory.builder(createTempDir()).build()) {
      try (IndexOutput out = dir.createOutput(queries, IOContext.DEFAULT)) {
        out.writeBytes(new byte[100 + random().nextInt(5000)], 0, 100);
      }
      try (IndexInput in = dir.openInput(queries, random)) {
        assertEquals(1, dir.stats().mappedOpens());
        assertEquals(0, dir.stats().nioOpens());
        assertTrue(in.clone() instanceof MemorySegmentAccessInput);
      }
      try (IndexInput in = dir.openInput(queries, IOContext.DEFAULT)) {
        assertEquals(1, dir.stats().mappedOpens());
        assertEquals(1, dir.stats().nioOpens());
      }
    }
  }

  /** The temp files that an index-sorted flush really writes parse to the files they stand for. */
  public void testRealTempFileNamesParse() throws IOException {
    List<String> tempNames = Collections.synchronizedList(new ArrayList<>());
    try (HybridDirectory hybrid = new HybridDirectory(createTempDir());
        Directory recording =
            new FilterDirectory(hybrid) {
              @Override
              public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
                  throws IOException {
                IndexOutput out = super.createTempOutput(prefix, suffix, context);
                tempNames.add(out.getName());
                return out;
              }
            }) {
      IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
      config.setIndexSort(new Sort(new SortField("sort", SortField.Type.LONG)));
      try (IndexWriter writer = new IndexWriter(recording, config)) {
        for (int i = 0; i < 50; i++) {
          Document doc = new Document();
          doc.add(new NumericDocValuesField("sort", random().nextLong()));
          doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
          writer.addDocument(doc);
        }
        writer.commit();
      }
    }
    FileRouting routing = defaultRouting();
    int standIns = 0;
    for (String name : tempNames) {
      String extension = FileRouting.extension(name);
      if (name.substring(0, name.length() - ".tmp".length()).contains(".")) {
        // A stand-in for a stored-fields file that the sorted flush rewrites.
        standIns++;
        assertTrue(
            name + " parsed as \"" + extension + "\"",
            Set.of("fdt", "fdx", "fdm").contains(extension));
      } else {
        // Scratch data of its own (doc id and pointer buffers), read back once.
        assertEquals(name, "tmp", extension);
      }
      FileRouting.Route expected =
          Set.of("fdt", "fdx").contains(extension) ? FileRouting.Route.MMAP : FileRouting.Route.NIO;
      assertEquals(name, expected, routing.route(name, IOContext.DEFAULT));
    }
    assertTrue(
        "an index-sorted flush rewrites stored fields through temp files: " + tempNames,
        standIns > 0);
  }

  public void testCompoundFileAndItsSlicesAreMapped() throws IOException {
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
      config.setUseCompoundFile(true);
      config.setMergePolicy(NoMergePolicy.INSTANCE);
      config.setCodec(TestUtil.getDefaultCodec());
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int i = 0; i < 20; i++) {
          Document doc = new Document();
          doc.add(new StringField("id", "id" + i, Field.Store.YES));
          doc.add(new TextField("body", "hello world " + i, Field.Store.NO));
          writer.addDocument(doc);
        }
        writer.commit();
      }
      SegmentCommitInfo segment = SegmentInfos.readLatestCommit(dir).info(0);
      assertTrue(segment.info.getUseCompoundFile());
      try (CompoundDirectory compound =
          segment.info.getCodec().compoundFormat().getCompoundReader(dir, segment.info)) {
        assertEquals(1, dir.stats().openMappedInputs());
        for (String inner : compound.listAll()) {
          try (IndexInput slice = compound.openInput(inner, IOContext.DEFAULT)) {
            assertTrue(inner + " inside the .cfs should be a mapped slice", isMapped(slice));
          }
        }
      }
      assertEquals(0, dir.stats().openMappedInputs());

      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        assertEquals(1, searcher.count(new TermQuery(new Term("id", "id7"))));
        assertEquals(20, searcher.count(new TermQuery(new Term("body", "hello"))));
        assertEquals(1, dir.stats().openMappedInputs());
        assertEquals(dir.fileLength(segment.info.name + ".cfs"), dir.stats().mappedBytes());
      }
    }
  }

  public void testMergeAndFlushReadsGetSequentialAdvice() {
    FileRouting routing =
        new FileRouting(
            HybridDirectory.DEFAULT_MMAP_EXTENSIONS,
            Map.of("tim", ReadAdvice.RANDOM),
            Optional.of(ReadAdvice.NORMAL),
            RandomPicks.randomFrom(random(), PageReclaim.values()),
            Set.of(),
            random().nextBoolean());
    IOContext merge = IOContext.merge(new MergeInfo(10, 1000, false, 1));
    IOContext flush = IOContext.flush(new FlushInfo(10, 1000));
    for (String name : List.of("_0.tim", "_0.doc", "_0.cfs")) {
      assertEquals(ReadAdvice.SEQUENTIAL, routing.readAdvice(name, merge));
      assertEquals(ReadAdvice.SEQUENTIAL, routing.readAdvice(name, flush));
    }
    assertEquals(ReadAdvice.RANDOM, routing.readAdvice("_0.tim", IOContext.DEFAULT));
    assertEquals(ReadAdvice.NORMAL, routing.readAdvice("_0.doc", IOContext.DEFAULT));
  }

  public void testBuilderReplacesTheExtensionSet() throws IOException {
    try (HybridDirectory dir =
        HybridDirectory.builder(createTempDir())
            .mmapExtensions(Set.of(".FDT", "si"))
            .preloadExtensions(Set.of(".Fdt"))
            .readAdvice(".SI", ReadAdvice.NORMAL)
            .build()) {
      assertEquals(Set.of("fdt", "si"), dir.getMmapExtensions());
      assertTrue(dir.toString(), dir.toString().contains("{si=NORMAL}, preload=[fdt]"));
      writeFile(dir, "_0.fdt", 100);
      writeFile(dir, "_0.tim", 100);
      try (IndexInput fdt = dir.openInput("_0.fdt", IOContext.DEFAULT);
          IndexInput tim = dir.openInput("_0.tim", IOContext.DEFAULT)) {
        assertTrue(isMapped(fdt));
        assertFalse(isMapped(tim));
      }
    }
    expectThrows(
        IllegalArgumentException.class,
        () -> HybridDirectory.builder(createTempDir()).mmapExtensions(Set.of("tar.gz")));
    expectThrows(
        IllegalArgumentException.class,
        () -> HybridDirectory.builder(createTempDir()).readAdvice(".", ReadAdvice.RANDOM));
    expectThrows(
        IllegalArgumentException.class,
        () -> HybridDirectory.builder(createTempDir()).maxChunkSize(0));
  }

  /** Configured extensions are matched as {@link FileRouting#extension} finds them in names. */
  public void testConfiguredExtensionsAreNormalized() {
    for (String configured : List.of("fdt", ".fdt", "FDT", ".Fdt")) {
      assertEquals(configured, "fdt", FileRouting.normalizeExtension(configured));
    }
    assertEquals("", FileRouting.normalizeExtension(""));
    assertEquals(Set.of("fdt", "si"), FileRouting.normalizeExtensions(Set.of(".FDT", "fdt", "si")));
    for (String notAnExtension : List.of(".", "tar.gz", ".tar.gz", "..")) {
      expectThrows(
          IllegalArgumentException.class,
          notAnExtension,
          () -> FileRouting.normalizeExtension(notAnExtension));
    }
  }

  public void testPreloadFollowsExtensions() {
    FileRouting routing = preloading(Set.of("tip"));
    assertTrue(routing.preload("_0_Lucene103_0.tip", IOContext.DEFAULT));
    assertTrue(routing.preload("_0_Lucene103_0.TIP", IOContext.DEFAULT));
    assertFalse(routing.preload("_0_Lucene103_0.tim", randomSearchContext()));
    assertFalse(defaultRouting().preload("_0_Lucene103_0.tip", randomSearchContext()));
  }

  /**
   * A merge or a flush reads a file once, and a read-once input is closed right away: loading their
   * files would only evict what searches use.
   */
  public void testPreloadOnlyForSearches() {
    FileRouting routing = preloading(Set.of("tip", "fdt"));
    for (String name : List.of("_0_Lucene103_0.tip", "_0.fdt")) {
      assertTrue(name, routing.preload(name, IOContext.DEFAULT));
      assertFalse(name, routing.preload(name, IOContext.merge(new MergeInfo(10, 1000, false, 1))));
      assertFalse(name, routing.preload(name, IOContext.flush(new FlushInfo(10, 1000))));
      assertFalse(name, routing.preload(name, IOContext.READONCE));
    }
  }

  /**
   * Every file the default codec writes is either mapped or on the list of files read through NIO,
   * so a Lucene upgrade that adds a file type fails here instead of silently reading it via NIO.
   */
  public void testEveryFileOfTheDefaultCodecIsClassified() throws IOException {
    Set<String> nio =
        Set.of(
            "fdm", "tvm", "si", "fnm", "cfe", "tmd", "psm", "dvm", "nvm", "kdm", "vem", "vemf",
            "vemq", "liv", "lock", "");
    Set<String> seen = new TreeSet<>();
    try (HybridDirectory dir = new HybridDirectory(createTempDir())) {
      IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
      config.setCodec(TestUtil.getDefaultCodec());
      config.setUseCompoundFile(false);
      config.setMergePolicy(NoMergePolicy.INSTANCE);
      FieldType vectorsAndOffsets = new FieldType(TextField.TYPE_STORED);
      vectorsAndOffsets.setStoreTermVectors(true);
      vectorsAndOffsets.setStoreTermVectorPositions(true);
      vectorsAndOffsets.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
      try (IndexWriter writer = new IndexWriter(dir, config)) {
        for (int i = 0; i < 100; i++) {
          Document doc = new Document();
          doc.add(new StringField("id", "id" + i, Field.Store.YES));
          doc.add(new Field("body", "some words here " + i, vectorsAndOffsets));
          doc.add(new IntPoint("point", i));
          doc.add(new KnnFloatVectorField("vector", new float[] {i, 1f, 2f}));
          doc.add(SortedNumericDocValuesField.indexedField("skipped", i));
          if (i % 7 == 0) {
            doc.add(new NumericDocValuesField("sparse", i));
          }
          writer.addDocument(doc);
        }
        writer.deleteDocuments(new Term("id", "id3"));
        writer.commit();
      }
      for (String file : dir.listAll()) {
        seen.add(FileRouting.extension(file));
      }
    }
    for (String extension : seen) {
      assertTrue(
          "." + extension + " is neither mapped nor known to be read through NIO",
          HybridDirectory.DEFAULT_MMAP_EXTENSIONS.contains(extension) || nio.contains(extension));
    }
    // The doc values skip index has a file of its own from Lucene 10.5, the sparse doc values'
    // jump table from 10.6; older releases keep them in .dvd.
    assertEquals(
        seen + " and the sparse doc values' jump table",
        Version.LATEST.onOrAfter(Version.fromBits(10, 6, 0)),
        seen.contains("dvp"));
    assertEquals(
        seen + " and the doc values skip index",
        Version.LATEST.onOrAfter(Version.fromBits(10, 5, 0)),
        seen.contains("dvs"));
  }

  public void testStatsTrackMappedBytesUntilOwnersCloseTheirInputs() throws IOException {
    HybridDirectory dir = new HybridDirectory(createTempDir());
    int length = 1 + random().nextInt(10_000);
    writeFile(dir, "_0.doc", length);
    writeFile(dir, "_0.dvd", 17);
    IndexInput doc = dir.openInput("_0.doc", IOContext.DEFAULT);
    IndexInput docClone = doc.clone();
    try (IndexInput dvd = dir.openInput("_0.dvd", IOContext.DEFAULT)) {
      assertEquals(length + 17L, dir.stats().mappedBytes());
      assertEquals(2, dir.stats().openMappedInputs());
    }
    assertEquals(length, dir.stats().mappedBytes());
    assertEquals(1, dir.stats().openMappedInputs());

    dir.close();
    // Still the owner's to close: the directory leaves it open, as any Lucene directory does.
    assertEquals(length, dir.stats().mappedBytes());
    assertEquals(1, dir.stats().openMappedInputs());
    docClone.seek(length - 1);
    assertEquals((byte) (length - 1), docClone.readByte());
    expectThrows(AlreadyClosedException.class, () -> dir.openInput("_0.doc", IOContext.DEFAULT));
    doc.close();
    assertEquals(0, dir.stats().mappedBytes());
    assertEquals(0, dir.stats().openMappedInputs());
    expectThrows(
        AlreadyClosedException.class,
        () -> {
          docClone.seek(0);
          docClone.readByte();
        });
  }

  public void testTestsDirectoryPropertyCanNameIt() throws IOException {
    Path path = createTempDir();
    try (Directory dir = CommandLineUtil.newFSDirectory(HybridDirectory.class.getName(), path)) {
      assertTrue(dir instanceof HybridDirectory);
    }
  }

  private static FileRouting preloading(Set<String> extensions) {
    return new FileRouting(
        HybridDirectory.DEFAULT_MMAP_EXTENSIONS,
        Map.of(),
        Optional.empty(),
        PageReclaim.LRU,
        extensions,
        random().nextBoolean());
  }

  private static FileRouting defaultRouting() {
    return new FileRouting(
        HybridDirectory.DEFAULT_MMAP_EXTENSIONS,
        Map.of(),
        Optional.empty(),
        RandomPicks.randomFrom(random(), PageReclaim.values()),
        Set.of(),
        random().nextBoolean());
  }

  private static IOContext randomSearchContext() {
    return random().nextBoolean() ? IOContext.DEFAULT : newIOContext(random());
  }
}
