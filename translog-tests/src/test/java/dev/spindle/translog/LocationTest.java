package dev.spindle.translog;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;

/** {@link Location}: log order, identity consistent with that order, and its checks. */
public class LocationTest extends LuceneTestCase {

  private static Location randomLocation(long maxGeneration, long maxOffset) {
    return new Location(
        1 + random().nextLong(maxGeneration),
        random().nextLong(maxOffset),
        random().nextInt(4),
        random().nextLong(3) - 1);
  }

  public void testOrderIsConsistentWithEquals() {
    List<Location> locations = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      locations.add(randomLocation(3, 4));
    }
    for (Location a : locations) {
      for (Location b : locations) {
        int order = a.compareTo(b);
        assertEquals(a + " vs " + b, order == 0, a.equals(b));
        assertEquals(a + " vs " + b, Integer.signum(order), -Integer.signum(b.compareTo(a)));
        if (a.equals(b)) {
          assertEquals(a.hashCode(), b.hashCode());
        }
        if (a.generation() != b.generation()) {
          assertEquals(Long.signum(a.generation() - b.generation()), Integer.signum(order));
        } else if (a.offset() != b.offset()) {
          assertEquals(Long.signum(a.offset() - b.offset()), Integer.signum(order));
        }
      }
    }
  }

  public void testAccessorsAndToString() {
    Location location = new Location(3, 48, 17, 5);
    assertEquals(3, location.generation());
    assertEquals(48, location.offset());
    assertEquals(17, location.size());
    assertEquals(5, location.seqNo());
    assertEquals(65, location.endOffset());
    assertEquals("Location(generation 3, offset 48, 17 bytes, seqNo 5)", location.toString());
    assertEquals(location, new Location(3, 48, 17, 5));
    assertFalse(location.equals(new Location(3, 48, 17, 6)));
    assertFalse(location.equals(null));
  }

  public void testRefusesImpossibleParts() {
    expectThrows(IllegalArgumentException.class, () -> new Location(0, 48, 17, 5));
    expectThrows(IllegalArgumentException.class, () -> new Location(1, -1, 17, 5));
    expectThrows(IllegalArgumentException.class, () -> new Location(1, 48, -1, 5));
  }
}
