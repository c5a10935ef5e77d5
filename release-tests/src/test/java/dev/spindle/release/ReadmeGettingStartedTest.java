package dev.spindle.release;

import dev.spindle.release.ReactorPoms.Module;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.maven.model.Dependency;
import org.junit.BeforeClass;

/**
 * Keeps README.md's "Getting started" in step with the build: the dependency snippets name the BOM
 * at the reactor's version and modules it manages, the examples module (the application that
 * bin/test runs) declares what the Maven snippet declares, and the JVM flags and Java version are
 * the ones the build uses.
 */
public class ReadmeGettingStartedTest extends LuceneTestCase {

  private static final Pattern XML_DEPENDENCY =
      Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
  private static final Pattern GRADLE_COORDINATES =
      Pattern.compile("\"dev\\.spindle:([a-z-]+)(?::([^\"]+))?\"");

  private static ReactorPoms poms;
  private static String readme;
  private static String gettingStarted;

  @BeforeClass
  public static void readReadme() throws IOException {
    poms = new ReactorPoms();
    readme = Files.readString(poms.root.resolve("README.md"), StandardCharsets.UTF_8);
    int start = readme.indexOf("\n## Getting started\n");
    assertTrue("README.md has no '## Getting started' section", start >= 0);
    int end = readme.indexOf("\n## ", start + 1);
    gettingStarted = readme.substring(start, end < 0 ? readme.length() : end);
  }

  public void testMavenSnippetImportsTheBomAndDeclaresManagedModules() {
    List<String[]> dependencies = xmlDependencies(codeBlocks("xml"));
    assertFalse("no <dependency> in the Maven snippet", dependencies.isEmpty());
    boolean bomImported = false;
    for (String[] dependency : dependencies) { // groupId, artifactId, version, scope, type
      assertEquals("dev.spindle", dependency[0]);
      if (dependency[1].equals("spindle-bom")) {
        assertEquals("the BOM's version", poms.rootPom.getVersion(), dependency[2]);
        assertEquals("import", dependency[3]);
        assertEquals("pom", dependency[4]);
        bomImported = true;
      } else {
        assertTrue(dependency[1] + " is not in the BOM", managed().contains(dependency[1]));
        assertNull(dependency[1] + " repeats the BOM's version", dependency[2]);
      }
    }
    assertTrue("the Maven snippet does not import spindle-bom", bomImported);
  }

  public void testGradleSnippetUsesTheBomAsPlatform() {
    String gradle = String.join("\n", codeBlocks("kotlin"));
    Matcher matcher = GRADLE_COORDINATES.matcher(gradle);
    boolean platform = false;
    int count = 0;
    while (matcher.find()) {
      count++;
      if (matcher.group(1).equals("spindle-bom")) {
        assertEquals("the BOM's version", poms.rootPom.getVersion(), matcher.group(2));
        platform = true;
      } else {
        assertTrue(matcher.group(1) + " is not in the BOM", managed().contains(matcher.group(1)));
        assertNull(matcher.group(1) + " repeats the BOM's version", matcher.group(2));
      }
    }
    assertTrue("no Gradle coordinates in " + gradle, count > 1);
    assertTrue("the Gradle snippet has no platform(spindle-bom)", platform);
  }

  public void testExampleDeclaresWhatTheMavenSnippetDeclares() {
    Module example = poms.module("spindle-examples");
    Set<String> declared = new TreeSet<>();
    for (Dependency dependency : example.raw.getDependencies()) {
      declared.add(
          dependency.getArtifactId()
              + ":"
              + (dependency.getScope() == null ? "compile" : dependency.getScope())
              + ":"
              + dependency.getVersion());
    }
    Dependency bom = example.raw.getDependencyManagement().getDependencies().get(0);
    assertEquals("spindle-bom", bom.getArtifactId());
    assertEquals("import", bom.getScope());
    for (String[] dependency : xmlDependencies(codeBlocks("xml"))) {
      if (dependency[1].equals("spindle-bom") == false) {
        String scope = dependency[3] == null ? "compile" : dependency[3];
        String key = dependency[1] + ":" + scope + ":null";
        assertTrue(key + " is not in examples/pom.xml: " + declared, declared.contains(key));
      }
    }
  }

  public void testJvmFlagsAndJavaVersionAreTheBuilds() {
    String flags = poms.module("spindle-examples").raw.getProperties().getProperty("app.jvm.args");
    for (String flag : flags.split(" ")) {
      assertTrue(flag + " is not in README.md's getting started", gettingStarted.contains(flag));
    }
    String release = poms.rootPom.getProperties().getProperty("maven.compiler.release");
    assertTrue(
        "README.md's getting started does not say Java " + release,
        gettingStarted.contains("Java " + release + " or newer"));
    assertTrue(gettingStarted.contains("bin/test install"));
  }

  public void testEveryPublishedModuleIsInTheModuleTable() {
    for (String artifactId : managed()) {
      assertTrue(
          artifactId + " is not in README.md's module table",
          readme.contains("| `" + artifactId + "` |"));
    }
  }

  private static Set<String> managed() {
    Set<String> managed = new TreeSet<>();
    for (Dependency dependency : poms.bomPom.getDependencyManagement().getDependencies()) {
      managed.add(dependency.getArtifactId());
    }
    return managed;
  }

  private static List<String> codeBlocks(String language) {
    List<String> blocks = new ArrayList<>();
    String fence = "```" + language + "\n";
    for (int start = gettingStarted.indexOf(fence);
        start >= 0;
        start = gettingStarted.indexOf(fence, start + 1)) {
      int end = gettingStarted.indexOf("```", start + fence.length());
      blocks.add(gettingStarted.substring(start + fence.length(), end));
    }
    assertFalse("no ```" + language + " block in README.md's getting started", blocks.isEmpty());
    return blocks;
  }

  private static List<String[]> xmlDependencies(List<String> blocks) {
    List<String[]> dependencies = new ArrayList<>();
    for (String block : blocks) {
      Matcher matcher = XML_DEPENDENCY.matcher(block);
      while (matcher.find()) {
        String body = matcher.group(1);
        dependencies.add(
            new String[] {
              element(body, "groupId"),
              element(body, "artifactId"),
              element(body, "version"),
              element(body, "scope"),
              element(body, "type")
            });
      }
    }
    return dependencies;
  }

  private static String element(String xml, String name) {
    Matcher matcher = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
    return matcher.find() ? matcher.group(1).trim() : null;
  }
}
