package dev.spindle.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Where {@link PrefetchingInput} prefetches, and that it reads exactly what the input it wraps
 * reads. The wrapped input records its prefetches and checks that each one lies inside it.
 */
public class PrefetchingInputTest extends LuceneTestCase {

  private static final long WINDOW = PrefetchingInput.WINDOW;

  /** A prefetch asked of a {@link RecordingInput}: its offset and length, slice-relative. */
  private record Prefetch(long offset, long length) {}

  /** An in-memory input that records its prefetches; its clones and slices share the record. */
  private static final class RecordingInput extends FilterIndexInput {
    private final List<Prefetch> prefetches;

    RecordingInput(IndexInput in, List<Prefetch> prefetches) {
      super(in.toString(), in);
      this.prefetches = prefetches;
    }

    @Override
    public void prefetch(long offset, long length) throws IOException {
      Objects.checkFromIndexSize(offset, length, length());
      assertTrue("an empty prefetch: " + offset, length > 0);
      prefetches.add(new Prefetch(offset, length));
    }

    @Override
    public IndexInput clone() {
      return new RecordingInput(in.clone(), prefetches);
    }

    @Override
    public IndexInput slice(String sliceDescription, long offset, long length) throws IOException {
      return new RecordingInput(in.slice(sliceDescription, offset, length), prefetches);
    }
  }

  private Directory dir;
  private byte[] bytes;
  private List<Prefetch> prefetches;
  private IndexInput plain;

  @Override
  public void setUp() throws Exception {
    super.setUp();
    dir = new ByteBuffersDirectory();
    // Room for two windows and more, so that every test can jump past a window.
    bytes = new byte[(int) (2 * WINDOW + 2) + random().nextInt(atLeast(64 << 10))];
    random().nextBytes(bytes);
    try (IndexOutput out = dir.createOutput("_0.fdt", IOContext.DEFAULT)) {
      out.writeBytes(bytes, bytes.length);
    }
    prefetches = new ArrayList<>();
    plain = dir.openInput("_0.fdt", IOContext.DEFAULT);
  }

  @Override
  public void tearDown() throws Exception {
    plain.close();
    dir.close();
    super.tearDown();
  }

  private PrefetchingInput prefetching() {
    return new PrefetchingInput(new RecordingInput(plain.clone(), prefetches));
  }

  private Prefetch windowFrom(long position) {
    return new Prefetch(position, Math.min(WINDOW, bytes.length - position));
  }

  public void testSeekPrefetchesAWindowFromWhereItLands() throws IOException {
    IndexInput in = prefetching();
    long target = random().nextInt(bytes.length);
    in.seek(target);
    assertEquals(List.of(windowFrom(target)), prefetches);

    // Inside the window just prefetched: nothing more to ask for.
    long inside = target + random().nextLong(Math.min(WINDOW, bytes.length - target));
    in.seek(inside);
    assertEquals(1, prefetches.size());

    // Behind the window, or past it: a new window.
    if (target > 0) {
      long behind = random().nextLong(target);
      in.seek(behind);
      assertEquals(windowFrom(behind), prefetches.getLast());
    }
    if (target + WINDOW < bytes.length) {
      long beyond = target + WINDOW + random().nextLong(bytes.length - target - WINDOW);
      in.seek(beyond);
      assertEquals(windowFrom(beyond), prefetches.getLast());
    }
  }

  public void testSeekToTheEndPrefetchesNothing() throws IOException {
    IndexInput in = prefetching();
    in.seek(bytes.length);
    assertEquals(List.of(), prefetches);
    expectThrows(IOException.class, in::readByte);
  }

  public void testWindowStopsAtTheEnd() throws IOException {
    IndexInput in = prefetching();
    long nearEnd = bytes.length - 1 - random().nextInt((int) WINDOW - 1);
    in.seek(nearEnd);
    assertEquals(List.of(new Prefetch(nearEnd, bytes.length - nearEnd)), prefetches);
  }

  public void testSkipPrefetchesOnlyPastTheWindow() throws IOException {
    IndexInput in = prefetching();
    in.seek(0);
    assertEquals(List.of(windowFrom(0)), prefetches);
    in.skipBytes(WINDOW - 1);
    assertEquals("a skip inside the window", 1, prefetches.size());
    in.skipBytes(1 + random().nextInt(bytes.length - (int) WINDOW));
    assertEquals(windowFrom(in.getFilePointer()), prefetches.getLast());
  }

  public void testBulkReadPastTheWindowPrefetchesWhatItNeeds() throws IOException {
    IndexInput in = prefetching();
    long start = random().nextLong(bytes.length - 2 * WINDOW);
    in.seek(start);
    // A read that ends inside the window asks for nothing.
    in.readBytes(new byte[(int) WINDOW / 2], 0, (int) WINDOW / 2);
    assertEquals(List.of(windowFrom(start)), prefetches);
    // One that runs past it prefetches from where it starts: its own length if that is more.
    long position = in.getFilePointer();
    int length = (int) WINDOW + random().nextInt(bytes.length - (int) position - (int) WINDOW + 1);
    byte[] read = new byte[length];
    in.readBytes(read, 0, length);
    assertEquals(
        new Prefetch(position, Math.min(Math.max(WINDOW, length), bytes.length - position)),
        prefetches.getLast());
    assertArrayEquals(Arrays.copyOfRange(bytes, (int) position, (int) position + length), read);
  }

  public void testClonesAndSlicesPrefetchWithinThemselves() throws IOException {
    IndexInput in = prefetching();
    IndexInput clone = in.clone();
    assertTrue(clone instanceof PrefetchingInput);
    long target = random().nextInt(bytes.length);
    clone.seek(target);
    assertEquals(windowFrom(target), prefetches.getLast());

    long offset = random().nextInt(bytes.length);
    long length = random().nextLong(bytes.length - offset + 1);
    IndexInput slice =
        random().nextBoolean()
            ? in.slice("slice", offset, length)
            : in.slice("slice", offset, length, IOContext.DEFAULT);
    assertTrue(slice instanceof PrefetchingInput);
    assertTrue(slice.clone() instanceof PrefetchingInput);
    if (length > 0) {
      long inSlice = random().nextLong(length);
      slice.seek(inSlice);
      // RecordingInput checked that the prefetch lies inside the slice.
      assertEquals(new Prefetch(inSlice, Math.min(WINDOW, length - inSlice)), prefetches.getLast());
      assertEquals(bytes[(int) (offset + inSlice)], slice.readByte());
    }
  }

  private static Object readVLongOrFailure(IndexInput in) {
    try {
      return in.readVLong();
    } catch (IOException | RuntimeException e) {
      return e.getClass();
    }
  }

  /** Random seeks, skips and reads return the same values, and leave the same file pointer. */
  public void testReadsWhatTheWrappedInputReads() throws IOException {
    IndexInput expected = plain.clone();
    IndexInput actual = prefetching();
    int operations = atLeast(500);
    for (int i = 0; i < operations; i++) {
      long remaining = bytes.length - expected.getFilePointer();
      switch (random().nextInt(13)) {
        case 0 -> {
          long target = random().nextInt(bytes.length + 1);
          expected.seek(target);
          actual.seek(target);
        }
        case 1 -> {
          long skip = random().nextLong(remaining + 1);
          expected.skipBytes(skip);
          actual.skipBytes(skip);
        }
        case 2 -> {
          if (remaining >= 1) {
            assertEquals(expected.readByte(), actual.readByte());
          }
        }
        case 3 -> {
          int length = (int) random().nextLong(Math.min(remaining, 3 * WINDOW) + 1);
          byte[] want = new byte[length];
          byte[] got = new byte[length];
          expected.readBytes(want, 0, length);
          actual.readBytes(got, 0, length);
          assertArrayEquals(want, got);
        }
        case 4 -> {
          if (remaining >= Long.BYTES) {
            assertEquals(expected.readLong(), actual.readLong());
          }
        }
        case 5 -> {
          if (remaining >= Integer.BYTES) {
            assertEquals(expected.readInt(), actual.readInt());
          }
        }
        case 6 -> {
          int count = (int) random().nextLong(remaining / Long.BYTES + 1);
          long[] want = new long[count];
          long[] got = new long[count];
          expected.readLongs(want, 0, count);
          actual.readLongs(got, 0, count);
          assertArrayEquals(want, got);
        }
        case 7 -> {
          if (remaining >= Short.BYTES) {
            assertEquals(expected.readShort(), actual.readShort());
          }
        }
        case 8 -> {
          int count = (int) random().nextLong(remaining / Integer.BYTES + 1);
          int[] want = new int[count];
          int[] got = new int[count];
          expected.readInts(want, 0, count);
          actual.readInts(got, 0, count);
          assertArrayEquals(want, got);
        }
        case 9 -> {
          int count = (int) random().nextLong(remaining / Float.BYTES + 1);
          float[] want = new float[count];
          float[] got = new float[count];
          expected.readFloats(want, 0, count);
          actual.readFloats(got, 0, count);
          assertArrayEquals(want, got, 0f);
        }
        case 10 -> {
          // A group of four variable-length ints takes at most 17 bytes.
          if (remaining >= 17) {
            int[] want = new int[4];
            int[] got = new int[4];
            expected.readGroupVInt(want, 0);
            actual.readGroupVInt(got, 0);
            assertArrayEquals(want, got);
          }
        }
        case 11 -> {
          // Random bytes are not always a valid variable-length long: then both must fail.
          if (remaining >= 10) {
            long position = expected.getFilePointer();
            Object want = readVLongOrFailure(expected);
            Object got = readVLongOrFailure(actual);
            assertEquals(want, got);
            if (want instanceof Class<?>) {
              expected.seek(position);
              actual.seek(position);
            }
          }
        }
        case 12 -> {
          // Carry on through clones taken mid-stream, as codecs do.
          expected = expected.clone();
          actual = actual.clone();
          assertTrue(actual instanceof PrefetchingInput);
        }
        default -> throw new AssertionError();
      }
      assertEquals(expected.getFilePointer(), actual.getFilePointer());
    }
    assertEquals(expected.length(), actual.length());
  }
}
