package dev.spindle.bench.directory;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;

/** Loads a peer's {@link PeerDirectory} adapter by name, in the peer's JVM. */
final class PeerDirectories {

  private PeerDirectories() {}

  static Directory open(DirectoryKind kind, String adapterClass, Path path) throws IOException {
    PeerDirectory adapter;
    try {
      adapter =
          Class.forName(adapterClass)
              .asSubclass(PeerDirectory.class)
              .getConstructor()
              .newInstance();
    } catch (ClassNotFoundException e) {
      throw new IOException(
          kind
              + " opens only in a JVM on the class path of the peer "
              + kind.peer().orElseThrow()
              + ", which holds "
              + adapterClass,
          e);
    } catch (ReflectiveOperationException | ClassCastException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new IOException("cannot create " + adapterClass, cause);
    }
    return adapter.open(path);
  }
}
