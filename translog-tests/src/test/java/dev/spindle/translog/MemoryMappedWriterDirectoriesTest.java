package dev.spindle.translog;

import dev.spindle.tests.RandomTranslogConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Directories written by the memory-mapped writer of earlier snapshots ({@code mappedSegmentSize(64
 * << 10)}, 64 KiB generations) open and recover with today's translog. That writer stored records
 * through mappings of the prepared file, in the same format as the buffered writer, so nothing
 * about such a directory is special; this test keeps it so.
 *
 * <p>The archive holds two directories. {@code closed}: operations 0 to 499 appended, with rolls
 * after operations 149 and 299, operations 0 to 419 synced, then the translog closed. {@code
 * crashed}: the files copied while the same translog was open, after operations 0 to 419 were
 * synced and before any later append, as a crash would leave them.
 */
public class MemoryMappedWriterDirectoriesTest extends LuceneTestCase {

  private static final String ARCHIVE = "memory-mapped-writer-directories.zip";

  public void testAClosedDirectoryRecoversEveryOperation() throws IOException {
    assertRecoversThenAppends(unpack("closed"), 500);
  }

  public void testACrashedDirectoryRecoversEverySyncedOperation() throws IOException {
    assertRecoversThenAppends(unpack("crashed"), 420);
  }

  /** The payload the writing program appended with {@code seqNo}. */
  private static byte[] payload(long seqNo) {
    int length = 1 + (int) ((seqNo * 7919) % 600);
    byte[] text = ("operation " + seqNo + "; ").getBytes(StandardCharsets.UTF_8);
    byte[] payload = new byte[length];
    for (int i = 0; i < length; i++) {
      payload[i] = text[i % text.length];
    }
    return payload;
  }

  private void assertRecoversThenAppends(Path dir, int operations) throws IOException {
    TranslogConfig config = RandomTranslogConfig.create(random(), dir);
    int added = 1 + random().nextInt(50);
    try (Translog translog = Translog.open(config)) {
      assertEquals(RecoveryMode.STRICT, config.recoveryMode());
      assertEquals(operations - 1, translog.maxSeqNo());
      assertOperations(translog, operations);
      Location last = null;
      for (long seqNo = operations; seqNo < operations + added; seqNo++) {
        last = translog.append(seqNo, payload(seqNo));
      }
      translog.ensureSynced(last);
    }
    try (Translog reopened = Translog.open(RandomTranslogConfig.create(random(), dir))) {
      assertOperations(reopened, operations + added);
    }
  }

  private static void assertOperations(Translog translog, int count) throws IOException {
    List<Long> seqNos = new ArrayList<>();
    try (TranslogSnapshot snapshot = translog.newSnapshot(0)) {
      for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        assertArrayEquals("payload of " + op, payload(op.seqNo()), op.payload());
        seqNos.add(op.seqNo());
      }
    }
    assertEquals(count, seqNos.size());
    for (int i = 0; i < count; i++) {
      assertEquals((long) i, (long) seqNos.get(i));
    }
  }

  /** Unpacks one of the archive's two directories into a new temporary directory. */
  private Path unpack(String name) throws IOException {
    Path dir = createTempDir(name);
    int files = 0;
    try (InputStream in = getClass().getResourceAsStream(ARCHIVE);
        ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        String path = entry.getName();
        if (entry.isDirectory() || path.startsWith(name + "/") == false) {
          continue;
        }
        Files.copy(zip, dir.resolve(path.substring(name.length() + 1)));
        files++;
      }
    }
    assertTrue("no files under " + name + "/ in " + ARCHIVE, files > 0);
    return dir;
  }
}
