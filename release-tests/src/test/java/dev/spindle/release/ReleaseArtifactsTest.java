package dev.spindle.release;

import dev.spindle.release.ReactorPoms.Module;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.maven.model.Dependency;
import org.apache.maven.model.Developer;
import org.apache.maven.model.License;
import org.apache.maven.model.Model;
import org.apache.maven.model.Scm;
import org.junit.BeforeClass;

/**
 * Checks what {@code mvn -P release deploy} would publish, from the jars the other modules built
 * and their POMs as a consumer's build sees them: LICENSE and NOTICE in every jar, the metadata
 * Maven Central requires in every POM, a BOM that lists every published module, and no build-only
 * artifact leaking into a published module's dependencies.
 */
public class ReleaseArtifactsTest extends LuceneTestCase {

  /** The jars Maven Central requires beside each published jar module's POM. */
  private static final List<String> REQUIRED_CLASSIFIERS = List.of("", "sources", "javadoc");

  /** Libraries that only a test framework may put on its users' compile class path. */
  private static final Set<String> TEST_LIBRARIES =
      Set.of(
          "junit:junit",
          "org.hamcrest:hamcrest",
          "org.hamcrest:hamcrest-core",
          "org.apache.lucene:lucene-test-framework",
          "com.carrotsearch.randomizedtesting:randomizedtesting-runner");

  private static ReactorPoms poms;

  @BeforeClass
  public static void readPoms() {
    poms = new ReactorPoms();
  }

  public void testEveryJarCarriesLicenseAndNotice() throws IOException {
    byte[] license = Files.readAllBytes(poms.root.resolve("LICENSE"));
    byte[] notice = Files.readAllBytes(poms.root.resolve("NOTICE"));
    assertTrue(
        "LICENSE is not the Apache License 2.0",
        new String(license, StandardCharsets.UTF_8)
            .contains("Apache License\n                           Version 2.0, January 2004"));
    for (Path jar : publishedJars()) {
      try (JarFile file = new JarFile(jar.toFile())) {
        assertArrayEquals(jar + "!META-INF/LICENSE", license, read(file, "META-INF/LICENSE"));
        assertArrayEquals(jar + "!META-INF/NOTICE", notice, read(file, "META-INF/NOTICE"));
      }
    }
  }

  public void testJavadocJarsCarryNoFonts() throws IOException {
    for (Module module : publishedJarModules()) {
      Path jar = module.jar("javadoc");
      try (JarFile file = new JarFile(jar.toFile())) {
        List<String> fonts =
            file.stream()
                .map(ZipEntry::getName)
                .filter(name -> name.matches("(?i).*\\.(woff2?|ttf|otf|eot)"))
                .toList();
        assertEquals(jar + " carries fonts", List.of(), fonts);
        assertNotNull(jar + " has no index.html", file.getEntry("index.html"));
      }
    }
  }

  public void testEveryPublishedPomHasCompleteMetadata() {
    Model reference = poms.bomPom;
    assertNotBlank("url", reference.getUrl());
    assertNotBlank("issueManagement url", reference.getIssueManagement().getUrl());
    Scm scm = reference.getScm();
    assertNotBlank("scm connection", scm.getConnection());
    assertNotBlank("scm developerConnection", scm.getDeveloperConnection());
    assertNotBlank("scm url", scm.getUrl());
    List<Model> published = new ArrayList<>();
    published.add(poms.rootPom);
    for (Module module : poms.modules) {
      if (module.published()) {
        published.add(module.effective);
        // Not inherited (name) or inherited but then wrong (description): each module's own.
        assertNotBlank(module + " declares no name", module.raw.getName());
        assertNotBlank(module + " declares no description", module.raw.getDescription());
      }
    }
    for (Model pom : published) {
      String id = pom.getArtifactId();
      assertNotBlank(id + " name", pom.getName());
      assertNotBlank(id + " description", pom.getDescription());
      // The same URLs everywhere: Maven would append the artifactId if a parent let it.
      assertEquals(id + " url", reference.getUrl(), pom.getUrl());
      assertEquals(id + " scm connection", scm.getConnection(), pom.getScm().getConnection());
      assertEquals(
          id + " scm developerConnection",
          scm.getDeveloperConnection(),
          pom.getScm().getDeveloperConnection());
      assertEquals(id + " scm url", scm.getUrl(), pom.getScm().getUrl());
      assertEquals(
          id + " issueManagement",
          reference.getIssueManagement().getUrl(),
          pom.getIssueManagement().getUrl());
      List<License> licenses = pom.getLicenses();
      assertEquals(id + " licenses", 1, licenses.size());
      assertEquals(id + " licence", "Apache-2.0", licenses.get(0).getName());
      assertEquals(
          id + " licence url",
          "https://www.apache.org/licenses/LICENSE-2.0.txt",
          licenses.get(0).getUrl());
      assertFalse(id + " developers", pom.getDevelopers().isEmpty());
      for (Developer developer : pom.getDevelopers()) {
        assertNotBlank(id + " developer name", developer.getName());
      }
    }
  }

  public void testBomManagesEveryPublishedModule() {
    Set<String> expected = new TreeSet<>();
    for (Module module : publishedJarModules()) {
      expected.add("dev.spindle:" + module.artifactId() + ":" + module.effective.getVersion());
    }
    Set<String> managed = new TreeSet<>();
    for (Dependency dependency : poms.bomPom.getDependencyManagement().getDependencies()) {
      managed.add(
          dependency.getGroupId()
              + ":"
              + dependency.getArtifactId()
              + ":"
              + dependency.getVersion());
    }
    assertEquals(expected, managed);
  }

  public void testEveryModuleHasTheReactorVersion() {
    for (Module module : poms.modules) {
      assertEquals(module + " version", poms.rootPom.getVersion(), module.effective.getVersion());
    }
  }

  public void testBuildOnlyModulesAreNeitherInstalledNorDeployed() {
    // The benchmarks jar bundles JUnit, JMH and lucene-test-framework at compile scope.
    for (String artifactId : List.of("spindle-benchmarks", "spindle-examples")) {
      Module module = poms.module(artifactId);
      assertFalse(module + " is published", module.published());
    }
    for (Module module : poms.modules) {
      if (module.published() == false) {
        assertEquals(
            module + " is installed (bin/test install) though never deployed",
            "true",
            module.raw.getProperties().getProperty("maven.install.skip"));
      }
    }
  }

  public void testPublishedModulesLeakNoBuildOnlyDependency() {
    Set<String> unpublished = new TreeSet<>();
    for (Module module : poms.modules) {
      if (module.published() == false) {
        unpublished.add(module.artifactId());
      }
    }
    for (Module module : publishedJarModules()) {
      boolean testFramework = module.artifactId().endsWith("test-framework");
      for (Dependency dependency : module.effective.getDependencies()) {
        String scope = dependency.getScope() == null ? "compile" : dependency.getScope();
        if (scope.equals("compile") == false && scope.equals("runtime") == false) {
          continue;
        }
        String key = dependency.getGroupId() + ":" + dependency.getArtifactId();
        String where = module + " depends on " + key + " at " + scope + " scope";
        assertFalse(where, dependency.getGroupId().equals("org.openjdk.jmh"));
        assertFalse(where, unpublished.contains(dependency.getArtifactId()));
        assertTrue(where, testFramework || TEST_LIBRARIES.contains(key) == false);
      }
    }
  }

  private static List<Module> publishedJarModules() {
    List<Module> modules = new ArrayList<>();
    for (Module module : poms.modules) {
      if (module.published() && module.isJar()) {
        modules.add(module);
      }
    }
    assertFalse("no published jar modules in " + poms.modules, modules.isEmpty());
    return modules;
  }

  /**
   * Every jar a published module builds, as deploy would upload it: the main, sources and javadoc
   * jars, which each must have, and any other attached jar (a tests jar of fixtures, its sources).
   */
  private static List<Path> publishedJars() throws IOException {
    List<Path> jars = new ArrayList<>();
    for (Module module : publishedJarModules()) {
      for (String classifier : REQUIRED_CLASSIFIERS) {
        Path jar = module.jar(classifier);
        assertTrue(jar + " was not built", Files.isRegularFile(jar));
      }
      String prefix = module.artifactId() + "-" + module.effective.getVersion();
      try (var files = Files.list(module.dir.resolve("target"))) {
        files
            .filter(
                file -> {
                  String name = file.getFileName().toString();
                  return name.startsWith(prefix) && name.endsWith(".jar");
                })
            .sorted()
            .forEach(jars::add);
      }
    }
    return jars;
  }

  private static byte[] read(JarFile file, String name) throws IOException {
    ZipEntry entry = file.getEntry(name);
    assertNotNull(file.getName() + " has no " + name, entry);
    try (InputStream in = file.getInputStream(entry)) {
      return in.readAllBytes();
    }
  }

  private static void assertNotBlank(String what, String value) {
    assertTrue(what + ": '" + value + "'", value != null && value.isBlank() == false);
  }
}
