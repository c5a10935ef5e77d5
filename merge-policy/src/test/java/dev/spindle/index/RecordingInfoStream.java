package dev.spindle.index;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.lucene.util.InfoStream;

/** Records the {@code MP} messages; other components are disabled, as a user would filter. */
final class RecordingInfoStream extends InfoStream {
  final List<String> messages = Collections.synchronizedList(new ArrayList<>());

  @Override
  public void message(String component, String message) {
    assertEquals("only enabled components are written to", "MP", component);
    messages.add(message);
  }

  @Override
  public boolean isEnabled(String component) {
    return "MP".equals(component);
  }

  @Override
  public void close() {}

  List<String> startingWith(String prefix) {
    synchronized (messages) {
      return messages.stream().filter(message -> message.startsWith(prefix)).toList();
    }
  }

  void assertLogged(String prefix) {
    assertFalse(
        "no message starts with: " + prefix + "\n" + messages, startingWith(prefix).isEmpty());
  }
}
