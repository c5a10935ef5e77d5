package dev.spindle.tests;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * What {@link PowerLossFileSystem} keeps and loses: durable things always survive, and each kind of
 * unsynced change is both kept and lost across enough power losses. Loops are long enough that
 * missing an outcome by chance is below one in a billion for any seed.
 */
public class TestPowerLossFileSystem extends LuceneTestCase {

  private PowerLossFileSystem newFileSystem() {
    return new PowerLossFileSystem(createTempDir(), random().nextLong());
  }

  static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  static void write(Path file, byte[] bytes, boolean force) throws IOException {
    try (FileChannel channel =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      if (force) {
        channel.force(false);
      }
    }
  }

  static byte[] readOrNull(Path file) throws IOException {
    try {
      return Files.readAllBytes(file);
    } catch (
        @SuppressWarnings("unused")
        NoSuchFileException e) {
      return null;
    }
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  public void testForcedDataAndSyncedEntriesSurviveEveryPowerLoss() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path root = fs.root();
      Path sub = Files.createDirectory(root.resolve("sub"));
      fsyncDirectory(root);
      int iterations = atLeast(30);
      for (int i = 0; i < iterations; i++) {
        byte[] durable = randomBytes(random(), random().nextInt(20000));
        Path file = sub.resolve("durable-" + i);
        write(file, durable, true);
        fsyncDirectory(sub);
        // Unsynced noise that must not disturb it: appends, other files, renames, deletes.
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.APPEND)) {
          channel.write(ByteBuffer.wrap(randomBytes(random(), random().nextInt(9000))));
        }
        write(sub.resolve("noise"), randomBytes(random(), random().nextInt(9000)), false);
        Files.move(
            sub.resolve("noise"), sub.resolve("noise-moved"), StandardCopyOption.ATOMIC_MOVE);
        Files.deleteIfExists(sub.resolve("durable-" + (i - 1) + "-gone"));
        String report = fs.powerLoss(random());
        byte[] after = readOrNull(file);
        assertNotNull(report, after);
        assertTrue(report, after.length >= durable.length);
        assertArrayEquals(report, durable, Arrays.copyOf(after, durable.length));
        for (int j = 0; j < i; j++) {
          assertTrue(report, Files.exists(sub.resolve("durable-" + j)));
        }
      }
    }
  }

  public void testUnsyncedCreateMayVanishEvenIfItsDataWasForced() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Set<String> outcomes = new HashSet<>();
      for (int i = 0; i < 200 && outcomes.size() < 2; i++) {
        byte[] data = randomBytes(random(), 1 + random().nextInt(5000));
        Path file = fs.root().resolve("file-" + i);
        write(file, data, true); // forced, but its directory entry is not
        String report = fs.powerLoss(random());
        byte[] after = readOrNull(file);
        if (after == null) {
          outcomes.add("vanished");
        } else {
          assertArrayEquals(report, data, after);
          outcomes.add("kept");
        }
      }
      assertEquals(Set.of("vanished", "kept"), outcomes);
    }
  }

  public void testUnsyncedRenameOverAFileKeepsAPrefixOfTheOperations() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path target = fs.root().resolve("checkpoint");
      Path temp = fs.root().resolve("checkpoint.tmp");
      byte[] old = randomBytes(random(), 100);
      write(target, old, true);
      fsyncDirectory(fs.root());
      Set<String> outcomes = new HashSet<>();
      Set<String> unsynced = Set.of("renamed", "nothing", "created only");
      for (int i = 0; i < 300 && outcomes.containsAll(unsynced) == false; i++) {
        byte[] fresh = randomBytes(random(), 100);
        write(temp, fresh, true);
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        boolean synced = random().nextInt(4) == 0;
        if (synced) {
          fsyncDirectory(fs.root());
        }
        String report = fs.powerLoss(random());
        byte[] now = readOrNull(target);
        byte[] tmp = readOrNull(temp);
        if (Arrays.equals(now, fresh)) {
          assertNull(report, tmp);
          outcomes.add(synced ? "synced" : "renamed");
        } else {
          assertFalse(report, synced);
          assertArrayEquals(report, old, now);
          if (tmp == null) {
            outcomes.add("nothing");
          } else {
            assertArrayEquals(report, fresh, tmp);
            outcomes.add("created only");
          }
        }
        old = now;
        Files.deleteIfExists(temp);
        fsyncDirectory(fs.root());
      }
      assertTrue(outcomes.toString(), outcomes.containsAll(unsynced));
    }
  }

  /** A rename between directories survives in both or in neither, never half-applied. */
  public void testRenameBetweenDirectoriesIsAtomic() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path a = Files.createDirectory(fs.root().resolve("a"));
      Path b = Files.createDirectory(fs.root().resolve("b"));
      fsyncDirectory(fs.root());
      Set<String> outcomes = new HashSet<>();
      for (int i = 0; i < 200 && outcomes.size() < 3; i++) {
        byte[] data = randomBytes(random(), 100);
        write(a.resolve("f"), data, true);
        fsyncDirectory(a);
        Files.move(a.resolve("f"), b.resolve("f"), StandardCopyOption.ATOMIC_MOVE);
        boolean synced = random().nextBoolean();
        if (synced) {
          fsyncDirectory(random().nextBoolean() ? a : b); // either side commits the rename
        }
        String report = fs.powerLoss(random());
        byte[] inA = readOrNull(a.resolve("f"));
        byte[] inB = readOrNull(b.resolve("f"));
        assertTrue(report, (inA == null) != (inB == null));
        assertArrayEquals(report, data, inA == null ? inB : inA);
        assertFalse(report, synced && inA != null);
        outcomes.add(synced ? "synced" : inA == null ? "moved" : "reverted");
        Files.deleteIfExists(a.resolve("f"));
        Files.deleteIfExists(b.resolve("f"));
        fsyncDirectory(a);
        fsyncDirectory(b);
      }
      assertEquals(Set.of("synced", "moved", "reverted"), outcomes);
    }
  }

  /** Fsyncing a new directory does not make its own entry in the parent durable. */
  public void testNewDirectoryNeedsItsParentSynced() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Set<String> outcomes = new HashSet<>();
      for (int i = 0; i < 200 && outcomes.size() < 3; i++) {
        Path dir = Files.createDirectory(fs.root().resolve("dir-" + i));
        byte[] data = randomBytes(random(), 100);
        write(dir.resolve("f"), data, true);
        fsyncDirectory(dir);
        boolean parentSynced = random().nextBoolean();
        if (parentSynced) {
          fsyncDirectory(fs.root());
        }
        String report = fs.powerLoss(random());
        byte[] after = readOrNull(dir.resolve("f"));
        if (after == null) {
          assertFalse(report, parentSynced);
          assertFalse(report, Files.exists(dir));
          outcomes.add("vanished");
        } else {
          assertArrayEquals(report, data, after);
          outcomes.add(parentSynced ? "synced" : "kept");
        }
      }
      assertEquals(Set.of("vanished", "kept", "synced"), outcomes);
    }
  }

  public void testHardLinkKeepsTheFileAfterTheOriginalIsDeleted() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path original = fs.root().resolve("original");
      Path link = fs.root().resolve("link");
      byte[] data = randomBytes(random(), 5000);
      write(original, data, true);
      Files.createLink(link, original);
      Files.delete(original);
      fsyncDirectory(fs.root());
      String report = fs.powerLoss(random());
      assertFalse(report, Files.exists(original));
      assertArrayEquals(report, data, Files.readAllBytes(link));
    }
  }

  public void testUnsyncedDeleteMayComeBack() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Set<Boolean> cameBack = new HashSet<>();
      for (int i = 0; i < 200 && cameBack.size() < 2; i++) {
        Path file = fs.root().resolve("deleted-" + i);
        byte[] data = randomBytes(random(), 300);
        write(file, data, true);
        fsyncDirectory(fs.root());
        Files.delete(file);
        String report = fs.powerLoss(random());
        byte[] after = readOrNull(file);
        cameBack.add(after != null);
        if (after != null) {
          assertArrayEquals(report, data, after);
        }
      }
      assertEquals(Set.of(true, false), cameBack);
    }
  }

  /**
   * Overwrites 16 KiB of forced data once: afterwards every 512 B sector is wholly old or wholly
   * new, and over many power losses all of these happen: all old, all new, pages mixed but whole,
   * and pages torn between sectors.
   */
  public void testUnsyncedOverwriteTearsAtSectorOrPageGranularity() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path file = fs.root().resolve("data");
      int size = 16 * 1024;
      Set<String> outcomes = new HashSet<>();
      for (int i = 0; i < 300 && outcomes.size() < 4; i++) {
        byte[] old = randomBytes(random(), size);
        write(file, old, true);
        fsyncDirectory(fs.root());
        byte[] fresh = randomBytes(random(), size);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
          channel.write(ByteBuffer.wrap(fresh), 0);
        }
        String report = fs.powerLoss(random());
        byte[] after = Files.readAllBytes(file);
        assertEquals(report, size, after.length);
        boolean[] sectorIsNew = new boolean[size / 512];
        for (int s = 0; s < sectorIsNew.length; s++) {
          byte[] sector = Arrays.copyOfRange(after, s * 512, (s + 1) * 512);
          sectorIsNew[s] = Arrays.equals(sector, Arrays.copyOfRange(fresh, s * 512, (s + 1) * 512));
          assertTrue(
              report + "\nsector " + s + " is neither old nor new",
              sectorIsNew[s]
                  || Arrays.equals(sector, Arrays.copyOfRange(old, s * 512, (s + 1) * 512)));
        }
        outcomes.add(classify(sectorIsNew));
      }
      assertEquals(Set.of("old", "new", "pages", "sectors"), outcomes);
    }
  }

  private static String classify(boolean[] sectorIsNew) {
    boolean anyNew = false;
    boolean anyOld = false;
    boolean tornPage = false;
    for (int page = 0; page < sectorIsNew.length / 8; page++) {
      for (int s = page * 8; s < page * 8 + 8; s++) {
        anyNew |= sectorIsNew[s];
        anyOld |= sectorIsNew[s] == false;
        tornPage |= sectorIsNew[s] != sectorIsNew[page * 8];
      }
    }
    if (tornPage) {
      return "sectors";
    }
    return anyNew && anyOld ? "pages" : anyNew ? "new" : "old";
  }

  public void testUnsyncedAppendLeavesALengthInBetween() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path file = fs.root().resolve("log");
      byte[] durable = randomBytes(random(), 1000);
      write(file, durable, true);
      fsyncDirectory(fs.root());
      Set<String> outcomes = new HashSet<>();
      for (int i = 0; i < 300 && outcomes.size() < 3; i++) {
        byte[] appended = randomBytes(random(), 1 + random().nextInt(3 * 4096));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.APPEND)) {
          for (int from = 0; from < appended.length; from += 100) {
            channel.write(ByteBuffer.wrap(appended, from, Math.min(100, appended.length - from)));
          }
        }
        String report = fs.powerLoss(random());
        byte[] after = Files.readAllBytes(file);
        assertTrue(report, after.length >= durable.length);
        assertTrue(report, after.length <= durable.length + appended.length);
        assertArrayEquals(report, durable, Arrays.copyOf(after, durable.length));
        for (int b = durable.length; b < after.length; b++) {
          byte expected = appended[b - durable.length];
          assertTrue(report + "\nbyte " + b, after[b] == expected || after[b] == 0);
        }
        outcomes.add(
            after.length == durable.length
                ? "dropped"
                : after.length == durable.length + appended.length ? "complete" : "partial");
        write(file, durable, true);
      }
      assertEquals(Set.of("dropped", "complete", "partial"), outcomes);
    }
  }

  public void testUnsyncedTruncateMayBeReverted() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path file = fs.root().resolve("file");
      Set<Integer> lengths = new HashSet<>();
      for (int i = 0; i < 200 && lengths.size() < 2; i++) {
        byte[] data = randomBytes(random(), 5000);
        write(file, data, true);
        fsyncDirectory(fs.root());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
          channel.truncate(1000);
        }
        String report = fs.powerLoss(random());
        byte[] after = Files.readAllBytes(file);
        lengths.add(after.length);
        assertTrue(report, after.length == 1000 || after.length == 5000);
        assertArrayEquals(report, Arrays.copyOf(data, 1000), Arrays.copyOf(after, 1000));
      }
      assertEquals(Set.of(1000, 5000), lengths);
    }
  }

  public void testChannelsOpenedBeforeAPowerLossAreDead() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path file = fs.root().resolve("file");
      FileChannel channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileChannel dir = FileChannel.open(fs.root(), StandardOpenOption.READ);
      channel.write(ByteBuffer.wrap(new byte[10]));
      fs.powerLoss(random());
      expectThrows(IOException.class, () -> channel.write(ByteBuffer.wrap(new byte[1])));
      expectThrows(IOException.class, () -> channel.read(ByteBuffer.allocate(1), 0));
      expectThrows(IOException.class, () -> channel.force(true));
      expectThrows(IOException.class, () -> dir.force(true));
      channel.close();
      dir.close();
      write(fs.root().resolve("after"), new byte[] {42}, true); // the root works again
      assertArrayEquals(new byte[] {42}, Files.readAllBytes(fs.root().resolve("after")));
    }
  }

  public void testEverythingFailsWhileThePowerIsOff() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path file = fs.root().resolve("file");
      write(file, new byte[] {1, 2, 3}, true);
      fsyncDirectory(fs.root());
      fs.cutPower(random());
      assertFalse(fs.isPowerOn());
      expectThrows(IOException.class, () -> Files.readAllBytes(file));
      expectThrows(IOException.class, () -> Files.delete(file));
      expectThrows(IOException.class, () -> Files.createDirectory(fs.root().resolve("d")));
      expectThrows(IllegalStateException.class, () -> fs.cutPower(random()));
      fs.restorePower();
      assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
    }
  }

  public void testScheduledPowerLossCutsInsideTheNthChange() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path file = fs.root().resolve("file");
      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        channel.force(true);
        fsyncDirectory(fs.root());
        int n = 1 + random().nextInt(10);
        fs.schedulePowerLoss(n, random());
        for (int i = 1; i < n; i++) {
          channel.write(ByteBuffer.wrap(new byte[] {(byte) i}));
        }
        assertEquals(0, fs.powerLosses());
        IOException e =
            expectThrows(IOException.class, () -> channel.write(ByteBuffer.allocate(1)));
        assertTrue(e.getMessage(), e.getMessage().contains("simulated power loss"));
        assertEquals(1, fs.powerLosses());
        assertFalse(fs.isPowerOn());
        assertNotNull(fs.lastPowerLoss());
      }
      fs.restorePower();
      assertTrue(Files.size(file) < 10);
    }
  }

  public void testSameSeedSameState() throws IOException {
    long seed = random().nextLong();
    long fsSeed = random().nextLong();
    String[] reports = new String[2];
    byte[][] contents = new byte[2][];
    for (int run = 0; run < 2; run++) {
      try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), fsSeed)) {
        Random random = new Random(seed);
        Path file = fs.root().resolve("file");
        write(file, randomBytes(random, 3000), true);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
          for (int i = 0; i < 20; i++) {
            channel.write(ByteBuffer.wrap(randomBytes(random, 700)), random.nextInt(20000));
          }
        }
        Files.createDirectory(fs.root().resolve("dir"));
        write(fs.root().resolve("dir/other"), randomBytes(random, 5000), random.nextBoolean());
        reports[run] = fs.powerLoss(random);
        contents[run] = readOrNull(file);
      }
    }
    assertEquals(reports[0], reports[1]);
    assertArrayEquals(contents[0], contents[1]);
  }

  public void testMappedWritesAreSimulatedThroughChannelForce() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path file = fs.root().resolve("mapped");
      Set<String> outcomes = new HashSet<>();
      for (int i = 0; i < 200 && outcomes.size() < 2; i++) {
        byte[] forced = randomBytes(random(), 5000);
        byte[] unsynced = randomBytes(random(), 3000);
        Files.deleteIfExists(file);
        try (FileChannel channel =
            FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
          MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, 8192);
          map.put(0, forced);
          map.force();
          channel.force(true); // the seam: this is what makes mapped writes durable
          fsyncDirectory(fs.root());
          map.put(5000, unsynced);
        }
        String report = fs.powerLoss(random());
        byte[] after = Files.readAllBytes(file);
        assertEquals(report, 8192, after.length);
        assertArrayEquals(report, forced, Arrays.copyOf(after, 5000));
        outcomes.add(
            Arrays.equals(unsynced, Arrays.copyOfRange(after, 5000, 8000)) ? "kept" : "lost");
      }
      assertEquals(Set.of("kept", "lost"), outcomes);
    }
  }

  public void testPathsOutsideTheRootCannotBeChanged() throws IOException {
    Path outside = createTempDir();
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path elsewhere =
          fs.root().resolve("..").resolve(outside.getFileName().toString()).resolve("x");
      expectThrows(IllegalArgumentException.class, () -> write(elsewhere, new byte[1], false));
      expectThrows(IllegalArgumentException.class, () -> Files.delete(fs.root()));
      expectThrows(
          IllegalArgumentException.class,
          () -> Files.createDirectory(elsewhere.getParent().resolve("y")));
    }
  }
}
