package dev.spindle.opensearch;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.lucene.store.Directory;
import org.opensearch.Version;
import org.opensearch.common.bootstrap.JarHell;
import org.opensearch.plugins.IndexStorePlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginInfo;
import org.opensearch.plugins.PluginsService;
import org.opensearch.secure_sm.policy.GrantEntry;
import org.opensearch.secure_sm.policy.PermissionEntry;
import org.opensearch.secure_sm.policy.PolicyParser;
import org.opensearch.test.OpenSearchTestCase;

/**
 * The plugin zip that {@code mvn package} built, checked as {@code bin/opensearch-plugin install}
 * and a starting node check it: files at the top level, a descriptor that OpenSearch's own reader
 * accepts for this OpenSearch and Java, no jar hell against the server's classpath, a policy that
 * OpenSearch's policy parser reads, and a plugin class that loads from the zip's jars alone, on the
 * server's Lucene, OpenSearch and log4j.
 */
public class PluginZipIT extends OpenSearchTestCase {

  private static final Set<String> BUNDLED =
      Set.of("spindle-opensearch-plugin", "spindle-directory-hybrid");

  public void testZipInstallsAndLoads() throws Exception {
    Path zip = Path.of(System.getProperty("spindle.plugin.zip"));
    assertTrue("build the zip with mvn package: " + zip, Files.isRegularFile(zip));
    Path pluginsDir = createTempDir();
    Path pluginDir = pluginsDir.resolve("spindle");
    List<Path> jars = unzip(zip, pluginDir);

    Set<String> bundled = new TreeSet<>();
    for (Path jar : jars) {
      String name = jar.getFileName().toString();
      bundled.add(name.substring(0, name.lastIndexOf('-', name.lastIndexOf("-SNAPSHOT") - 1)));
    }
    assertEquals("the zip bundles Spindle only, never what a node ships", BUNDLED, bundled);

    PluginInfo info = PluginInfo.readFromProperties(pluginDir);
    assertEquals("spindle", info.getName());
    assertEquals(SpindlePlugin.class.getName(), info.getClassname());
    assertEquals("21", info.getJavaVersion());
    assertEquals("[3.9.0]", info.getOpenSearchVersionRanges().toString());
    assertTrue(info.getDescription(), info.getDescription().contains("spindle_hybridfs"));
    assertTrue(
        jars.toString(),
        jars.stream()
            .anyMatch(
                jar ->
                    jar.getFileName()
                        .toString()
                        .equals("spindle-opensearch-plugin-" + info.getVersion() + ".jar")));
    assertEquals(Version.fromString("3.9.0"), Version.CURRENT);
    PluginsService.verifyCompatibility(info);

    // What the installer runs: the plugin's jars against the server's classpath.
    PluginsService.checkJarHellForPlugin(
        serverClassPath(), info, pluginDir, pluginsDir, createTempDir());

    // The grant every codebase of the plugin gets, as OpenSearch's policy parser reads it.
    List<GrantEntry> grants;
    try (Reader policy =
        Files.newBufferedReader(
            pluginDir.resolve(PluginInfo.OPENSEARCH_PLUGIN_POLICY), StandardCharsets.UTF_8)) {
      grants = PolicyParser.read(policy);
    }
    assertEquals(
        List.of(
            new GrantEntry(
                null,
                List.of(
                    new PermissionEntry(
                        "java.io.FilePermission", "/sys/kernel/mm/lru_gen/enabled", "read")))),
        grants);

    URL[] urls = new URL[jars.size()];
    for (int i = 0; i < urls.length; i++) {
      urls[i] = jars.get(i).toUri().toURL();
    }
    try (URLClassLoader loader = new URLClassLoader(urls, new ServerClassLoader())) {
      Class<?> pluginClass = Class.forName(info.getClassname(), true, loader);
      assertSame(loader, pluginClass.getClassLoader());
      assertTrue(Plugin.class.isAssignableFrom(pluginClass));
      Plugin plugin = (Plugin) pluginClass.getConstructor().newInstance();
      Map<String, IndexStorePlugin.DirectoryFactory> factories =
          ((IndexStorePlugin) plugin).getDirectoryFactories();
      assertEquals(Set.of(SpindleStoreSettings.STORE_TYPE), factories.keySet());
      assertFalse(plugin.getSettings().isEmpty());

      Class<?> hybrid = Class.forName("dev.spindle.store.HybridDirectory", false, loader);
      assertSame(loader, hybrid.getClassLoader());
      assertTrue(
          hybrid.getProtectionDomain().getCodeSource().getLocation().getPath(),
          hybrid
              .getProtectionDomain()
              .getCodeSource()
              .getLocation()
              .getPath()
              .contains("spindle-directory-hybrid"));
      // Lucene comes from the node.
      assertSame(Directory.class, Class.forName(Directory.class.getName(), false, loader));
      plugin.close();
    }
  }

  /** Extracts the zip as the installer does, returning the jars; every entry is top-level. */
  private static List<Path> unzip(Path zip, Path target) throws IOException {
    Files.createDirectories(target);
    List<Path> jars = new ArrayList<>();
    Set<String> names = new HashSet<>();
    try (ZipFile file = new ZipFile(zip.toFile())) {
      for (ZipEntry entry : file.stream().toList()) {
        assertFalse(
            "the installer expects no folder in the zip: " + entry.getName(),
            entry.isDirectory() || entry.getName().contains("/"));
        names.add(entry.getName());
        Path extracted = target.resolve(entry.getName());
        try (InputStream in = file.getInputStream(entry)) {
          Files.copy(in, extracted);
        }
        if (entry.getName().endsWith(".jar")) {
          jars.add(extracted);
        }
      }
    }
    assertTrue(names.toString(), names.contains(PluginInfo.OPENSEARCH_PLUGIN_PROPERTIES));
    assertTrue(names.toString(), names.contains(PluginInfo.OPENSEARCH_PLUGIN_POLICY));
    jars.sort(null);
    return jars;
  }

  /** This JVM's classpath less Spindle's own code: what a node's classpath holds. */
  private static Set<URL> serverClassPath() throws IOException, URISyntaxException {
    Set<URL> classPath = new HashSet<>();
    for (URL url : JarHell.parseClassPath()) {
      if (holdsSpindle(Path.of(url.toURI())) == false) {
        classPath.add(url);
      }
    }
    return classPath;
  }

  private static boolean holdsSpindle(Path entry) throws IOException {
    if (Files.isDirectory(entry)) {
      return Files.isDirectory(entry.resolve("dev/spindle/opensearch"))
          || Files.isDirectory(entry.resolve("dev/spindle/store"));
    }
    if (Files.isRegularFile(entry) == false) {
      return false;
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      return jar.stream().anyMatch(e -> e.getName().startsWith("dev/spindle/"));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** The test JVM's classes as a node's server class loader has them: without Spindle. */
  private static final class ServerClassLoader extends ClassLoader {
    ServerClassLoader() {
      super(PluginZipIT.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("dev.spindle.")) {
        throw new ClassNotFoundException(name + " is the plugin's, not the server's");
      }
      return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
      return name.startsWith("dev/spindle/") ? null : super.getResource(name);
    }
  }
}
