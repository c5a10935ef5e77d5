package dev.spindle.bench.opensearch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.opensearch.Version;
import org.opensearch.common.settings.Settings;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginInfo;

/**
 * A single-node OpenSearch cluster in this JVM, with Spindle's plugin and the Netty transport
 * loaded from the classpath, its data under one folder: the node the OpenSearch benchmark measures
 * through the in-process client. Started again over the same folder, it recovers the indices it
 * had.
 */
final class BenchNode extends Node {

  private BenchNode(Settings settings, List<Class<? extends Plugin>> plugins) {
    super(
        InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null, () -> "bench"),
        plugins.stream().map(BenchNode::classpathPlugin).toList(),
        true);
  }

  /** Starts the node over {@code dataDir}. */
  static BenchNode start(Path dataDir, List<Class<? extends Plugin>> plugins) throws Exception {
    Settings settings =
        Settings.builder()
            .put("cluster.name", "spindle-bench")
            .put("node.name", "bench")
            .put("path.home", dataDir.resolve("home").toString())
            .put("path.data", dataDir.resolve("data").toString())
            .put("discovery.type", "single-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", "0")
            .put("transport.port", "0")
            // The benchmark's disk may be nearly full; shards must be allocated anyway.
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            .build();
    BenchNode node = new BenchNode(settings, plugins);
    boolean started = false;
    try {
      node.start();
      started = true;
      return node;
    } finally {
      if (started == false) {
        node.close();
      }
    }
  }

  private static PluginInfo classpathPlugin(Class<? extends Plugin> plugin) {
    return new PluginInfo(
        plugin.getName(),
        "loaded from the classpath",
        "NA",
        Version.CURRENT,
        "21",
        plugin.getName(),
        null,
        List.of(),
        false);
  }
}
