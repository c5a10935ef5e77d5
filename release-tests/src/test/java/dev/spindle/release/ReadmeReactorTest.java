package dev.spindle.release;

import dev.spindle.release.ReactorPoms.Module;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.maven.model.Dependency;
import org.apache.maven.model.Model;
import org.junit.BeforeClass;

/**
 * Keeps the READMEs in step with the reactor, as {@link ReadmeGettingStartedTest} keeps the
 * dependency snippets in step with the POMs: every module of the reactor (the root POM's modules
 * and theirs) is a line of the Contributing tree; every published jar is a row of the module table
 * and of the one table of supported Lucene versions, with the range its {@code LuceneSupport} class
 * checks and the releases its POM runs its suite on, and has a section that links to its own
 * README; every relative link of the READMEs leads to a file or heading that exists; and the
 * power-loss snippet is the code its test runs. Each check returns what it found wrong, so that the
 * tests at the end can show that a module added to the reactor alone, or a missing README, is
 * found.
 */
public class ReadmeReactorTest extends LuceneTestCase {

  private static final Pattern LUCENE_MINIMUM =
      Pattern.compile("MINIMUM = Version\\.fromBits\\((\\d+), (\\d+), (\\d+)\\)");
  private static final Pattern TABLE_LINK = Pattern.compile("\\[([^]]+)\\]\\(#[^)]+\\)");

  private static ReactorPoms poms;
  private static MarkdownFile readme;

  @BeforeClass
  public static void readReadme() throws IOException {
    poms = new ReactorPoms();
    readme = MarkdownFile.read(poms.root.resolve("README.md"));
  }

  public void testEveryReactorModuleIsInTheContributingTree() throws IOException {
    assertEquals(List.of(), missingFromTree(treeFolders(readme), reactorFolders()));
  }

  public void testEveryFolderOfTheContributingTreeExists() {
    for (String folder : treeFolders(readme)) {
      assertTrue(folder + " is in the tree but not in " + poms.root, isFolder(folder));
    }
  }

  public void testTheModuleTableListsThePublishedJars() {
    assertEquals(List.of(), moduleTableProblems(readme, publishedJars()));
  }

  public void testEveryPublishedJarHasASectionLinkingToItsReadme() {
    assertEquals(List.of(), sectionProblems(readme, publishedJars().keySet()));
  }

  public void testTheVersionTableIsTheOneAndSaysWhatTheBuildDoes() throws IOException {
    assertEquals(
        "tables of supported Lucene versions in README.md",
        1,
        MarkdownFile.tables(readme.text, "| module | Lucene |").size());
    assertEquals(List.of(), versionTableProblems(readme, expectedVersionRows()));
  }

  public void testEveryRelativeLinkResolves() throws IOException {
    List<String> problems = new ArrayList<>(linkProblems(readme));
    for (String folder : reactorFolders()) {
      Path moduleReadme = poms.root.resolve(folder).resolve("README.md");
      if (Files.exists(moduleReadme)) {
        problems.addAll(linkProblems(MarkdownFile.read(moduleReadme)));
      }
    }
    assertEquals(List.of(), problems);
  }

  /** Both READMEs that show the power-loss snippet show the body of the test that runs it. */
  public void testThePowerLossSnippetIsTheCodeItsTestRuns() throws IOException {
    List<String> tested = powerLossTestBody();
    int shown = 0;
    for (Path file : List.of(Path.of("README.md"), Path.of("test-framework", "README.md"))) {
      for (String block : MarkdownFile.codeBlocks(MarkdownFile.read(root(file)).text, "java")) {
        if (block.startsWith("try (PowerLossFileSystem fs")) {
          assertEquals(file + "'s power-loss snippet", tested, nonBlankLines(block));
          shown++;
        }
      }
    }
    assertEquals("power-loss snippets", 2, shown);
  }

  public void testAModuleAddedToTheReactorAloneIsFound() throws IOException {
    List<String> folders = new ArrayList<>(reactorFolders());
    folders.add("spindle-new-module");
    assertEquals(
        List.of("spindle-new-module/ is not in README.md's Contributing tree"),
        missingFromTree(treeFolders(readme), folders));

    Map<String, String> jars = new LinkedHashMap<>(publishedJars());
    jars.put("spindle-new-module", "spindle-new-module");
    assertEquals(
        List.of("spindle-new-module (spindle-new-module) is not in README.md's module table"),
        moduleTableProblems(readme, jars));
    List<String> sections = sectionProblems(readme, jars.keySet());
    assertTrue(
        sections.toString(), sections.contains("README.md has no section spindle-new-module"));
    assertTrue(
        sections.toString(),
        sections.contains("spindle-new-module has no README.md to link to from its section"));

    List<VersionRow> rows = new ArrayList<>(expectedVersionRows());
    rows.add(new VersionRow("spindle-new-module", "10.0.0", true, List.of("10.6.0")));
    assertEquals(
        List.of("spindle-new-module has no row in README.md's version table"),
        versionTableProblems(readme, rows));
  }

  public void testALinkToAMissingReadmeIsFound() {
    MarkdownFile file =
        new MarkdownFile(
            poms.root.resolve("README.md"),
            "See [its README](translog/README.md#no-such-heading), [this](no-such-module/README.md)"
                + " and [that](#getting-started).\n\n## Getting started\n");
    assertEquals(
        List.of(
            "README.md links to translog/README.md#no-such-heading, a heading it does not have",
            "README.md links to no-such-module/README.md, which does not exist"),
        linkProblems(file));
  }

  /** The folders of the reactor's modules relative to the root, nested ones too, '/' between. */
  private static List<String> reactorFolders() {
    List<String> folders = new ArrayList<>();
    addModules("", poms.root.resolve("pom.xml"), folders);
    return folders;
  }

  private static void addModules(String prefix, Path pom, List<String> folders) {
    for (String module : ReactorPoms.raw(pom).getModules()) {
      String folder = prefix + module;
      folders.add(folder);
      addModules(folder + "/", poms.root.resolve(folder).resolve("pom.xml"), folders);
    }
  }

  /** The published modules that are jars, folder to artifactId, in the reactor's order. */
  private static Map<String, String> publishedJars() {
    Map<String, String> jars = new LinkedHashMap<>();
    for (Module module : poms.modules) {
      if (module.published() && module.isJar()) {
        jars.put(folderOf(module), module.artifactId());
      }
    }
    return jars;
  }

  private static String folderOf(Module module) {
    return poms.root.relativize(module.dir).toString().replace('\\', '/');
  }

  /** The first word of each line of the Contributing section's tree that names a folder. */
  static Set<String> treeFolders(MarkdownFile readme) {
    String contributing = readme.section("Contributing");
    assertNotNull("README.md has no '## Contributing' section", contributing);
    List<String> blocks = MarkdownFile.codeBlocks(contributing, "");
    assertFalse("no tree in README.md's Contributing section", blocks.isEmpty());
    Set<String> folders = new TreeSet<>();
    for (String line : blocks.get(0).split("\n")) {
      String first = line.strip().split("\\s+", 2)[0];
      if (line.startsWith(" ") == false && first.endsWith("/")) {
        folders.add(first.substring(0, first.length() - 1));
      }
    }
    return folders;
  }

  static List<String> missingFromTree(Set<String> tree, List<String> moduleFolders) {
    List<String> problems = new ArrayList<>();
    for (String folder : moduleFolders) {
      if (tree.contains(folder) == false) {
        problems.add(folder + "/ is not in README.md's Contributing tree");
      }
    }
    return problems;
  }

  /** The module table's rows against the published jars, folder to artifactId. */
  static List<String> moduleTableProblems(MarkdownFile readme, Map<String, String> jars) {
    List<List<List<String>>> tables = MarkdownFile.tables(readme.text, "| module | artifact |");
    assertEquals("module tables in README.md", 1, tables.size());
    Map<String, String> listed = new LinkedHashMap<>();
    for (List<String> row : tables.get(0)) {
      Matcher link = TABLE_LINK.matcher(row.get(0));
      assertTrue("the module table's row does not link to a section: " + row, link.matches());
      listed.put(link.group(1), row.get(1).replace("`", ""));
    }
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, String> jar : jars.entrySet()) {
      String artifact = listed.get(jar.getKey());
      if (artifact == null) {
        problems.add(jar.getKey() + " (" + jar.getValue() + ") is not in README.md's module table");
      } else if (artifact.equals(jar.getValue()) == false) {
        problems.add(jar.getKey() + "'s artifact is " + jar.getValue() + ", not " + artifact);
      }
    }
    for (String folder : listed.keySet()) {
      if (jars.containsKey(folder) == false) {
        problems.add(folder + " is in README.md's module table but is not a published jar");
      }
    }
    return problems;
  }

  /** Each folder has a section of README.md that links to the README.md in the folder. */
  static List<String> sectionProblems(MarkdownFile readme, Set<String> folders) {
    List<String> problems = new ArrayList<>();
    for (String folder : folders) {
      String section = null;
      for (String heading : readme.sectionHeadings()) {
        if (heading.equals(folder) || heading.startsWith(folder + ":")) {
          section = readme.section(heading);
        }
      }
      if (section == null) {
        problems.add("README.md has no section " + folder);
      } else if (section.contains("](" + folder + "/README.md") == false) {
        problems.add(
            "README.md's section " + folder + " does not link to " + folder + "/README.md");
      }
      if (Files.isRegularFile(poms.root.resolve(folder).resolve("README.md")) == false) {
        problems.add(folder + " has no README.md to link to from its section");
      }
    }
    return problems;
  }

  /** What the version table must say of one published jar. */
  record VersionRow(String folder, String minimum, boolean usesLucene, List<String> testedOn) {}

  private static List<VersionRow> expectedVersionRows() throws IOException {
    List<VersionRow> rows = new ArrayList<>();
    for (Module module : poms.modules) {
      if (module.published() && module.isJar()) {
        rows.add(expectedVersionRow(module));
      }
    }
    return rows;
  }

  /**
   * The module's range is its {@code LuceneSupport.MINIMUM}; its suite runs on its POM's {@code
   * lucene.version} and, with {@code lucene.compat.skip} false, on {@code lucene.oldest.version},
   * which must be that minimum, and {@code lucene.opensearch.version}.
   */
  private static VersionRow expectedVersionRow(Module module) throws IOException {
    Properties properties = module.effective.getProperties();
    String lucene = properties.getProperty("lucene.version");
    boolean compat = "false".equals(properties.getProperty("lucene.compat.skip"));
    String minimum = luceneMinimum(module.dir);
    List<String> testedOn = List.of(lucene);
    if (compat) {
      String oldest = properties.getProperty("lucene.oldest.version");
      assertEquals(module + ": lucene.oldest.version is LuceneSupport.MINIMUM", minimum, oldest);
      testedOn = List.of(oldest, properties.getProperty("lucene.opensearch.version"), lucene);
    } else {
      assertNull(
          module + " supports a Lucene range but never runs its suite on its oldest", minimum);
    }
    return new VersionRow(folderOf(module), minimum, usesLucene(module.effective), testedOn);
  }

  /** "10.3.0" for {@code MINIMUM = Version.fromBits(10, 3, 0)}, null without LuceneSupport. */
  private static String luceneMinimum(Path moduleDir) throws IOException {
    Path sources = moduleDir.resolve("src/main/java");
    if (Files.isDirectory(sources) == false) {
      return null;
    }
    List<Path> found;
    try (Stream<Path> files = Files.walk(sources)) {
      found = files.filter(p -> p.getFileName().toString().equals("LuceneSupport.java")).toList();
    }
    if (found.isEmpty()) {
      return null;
    }
    assertEquals(moduleDir + ": LuceneSupport classes", 1, found.size());
    Matcher minimum =
        LUCENE_MINIMUM.matcher(Files.readString(found.get(0), StandardCharsets.UTF_8));
    assertTrue(found.get(0) + " has no MINIMUM = Version.fromBits(...)", minimum.find());
    return minimum.group(1) + "." + minimum.group(2) + "." + minimum.group(3);
  }

  /** Whether a Lucene artifact is on the module's class path outside its tests. */
  private static boolean usesLucene(Model effective) {
    for (Dependency dependency : effective.getDependencies()) {
      if (dependency.getGroupId().equals("org.apache.lucene")
          && "test".equals(dependency.getScope()) == false) {
        return true;
      }
    }
    return false;
  }

  static List<String> versionTableProblems(MarkdownFile readme, List<VersionRow> expected) {
    String gettingStarted = readme.section("Getting started");
    assertNotNull("README.md has no '## Getting started' section", gettingStarted);
    List<List<List<String>>> tables = MarkdownFile.tables(gettingStarted, "| module | Lucene |");
    assertEquals("version tables in README.md's getting started", 1, tables.size());
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (List<String> row : tables.get(0)) {
      rows.put(row.get(0).replace("`", ""), row);
    }
    List<String> problems = new ArrayList<>();
    for (VersionRow want : expected) {
      List<String> row = rows.remove(want.folder());
      if (row == null) {
        problems.add(want.folder() + " has no row in README.md's version table");
        continue;
      }
      String range = row.get(1);
      if (want.minimum() != null) {
        String major = want.minimum().substring(0, want.minimum().indexOf('.'));
        if (range.startsWith(want.minimum() + " and later " + major + ".x") == false) {
          problems.add(want.folder() + " runs on " + want.minimum() + " and later, not " + range);
        }
      } else if (range.startsWith("none") == want.usesLucene()) {
        problems.add(
            want.folder()
                + (want.usesLucene() ? " depends on Lucene: " : " has no Lucene dependency: ")
                + range);
      }
      String testedOn = String.join(", ", want.testedOn());
      if (row.get(2).equals(testedOn) == false) {
        problems.add(want.folder() + "'s suite runs on " + testedOn + ", not " + row.get(2));
      }
    }
    for (String folder : rows.keySet()) {
      problems.add(folder + " is in README.md's version table but is not a published jar");
    }
    return problems;
  }

  /** Every relative link of {@code file} names a file or folder that exists, and its heading. */
  static List<String> linkProblems(MarkdownFile file) {
    List<String> problems = new ArrayList<>();
    String name = poms.root.relativize(file.path).toString();
    for (String link : file.relativeLinks()) {
      int hash = link.indexOf('#');
      String target = hash < 0 ? link : link.substring(0, hash);
      Path resolved =
          target.isEmpty() ? file.path : file.path.getParent().resolve(target).normalize();
      if (Files.exists(resolved) == false) {
        problems.add(name + " links to " + link + ", which does not exist");
      } else if (hash >= 0
          && (target.isEmpty() ? file.anchors() : anchorsOf(resolved))
                  .contains(link.substring(hash + 1))
              == false) {
        problems.add(name + " links to " + link + ", a heading it does not have");
      }
    }
    return problems;
  }

  private static Set<String> anchorsOf(Path markdown) {
    try {
      return MarkdownFile.read(markdown).anchors();
    } catch (IOException e) {
      throw new AssertionError("cannot read " + markdown, e);
    }
  }

  /** The lines of {@code TestPowerLossWithIndexWriter.testReadmeSnippet}'s body. */
  private static List<String> powerLossTestBody() throws IOException {
    List<String> source =
        Files.readAllLines(
            root(
                Path.of(
                    "test-framework/src/test/java",
                    "dev/spindle/tests/TestPowerLossWithIndexWriter.java")),
            StandardCharsets.UTF_8);
    int start = source.indexOf("  public void testReadmeSnippet() throws IOException {");
    assertTrue("TestPowerLossWithIndexWriter has no testReadmeSnippet()", start >= 0);
    int end = source.subList(start, source.size()).indexOf("  }") + start;
    return nonBlankLines(String.join("\n", source.subList(start + 1, end)));
  }

  private static List<String> nonBlankLines(String text) {
    return text.lines().map(String::strip).filter(line -> line.isEmpty() == false).toList();
  }

  private static Path root(Path relative) {
    return poms.root.resolve(relative);
  }

  private static boolean isFolder(String relative) {
    return Files.isDirectory(poms.root.resolve(relative));
  }
}
