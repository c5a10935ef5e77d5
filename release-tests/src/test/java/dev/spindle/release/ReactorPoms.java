package dev.spindle.release;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.model.Dependency;
import org.apache.maven.model.Model;
import org.apache.maven.model.Parent;
import org.apache.maven.model.Repository;
import org.apache.maven.model.building.DefaultModelBuilderFactory;
import org.apache.maven.model.building.DefaultModelBuildingRequest;
import org.apache.maven.model.building.FileModelSource;
import org.apache.maven.model.building.ModelBuildingException;
import org.apache.maven.model.building.ModelBuildingRequest;
import org.apache.maven.model.building.ModelSource;
import org.apache.maven.model.io.xpp3.MavenXpp3Reader;
import org.apache.maven.model.resolution.ModelResolver;
import org.apache.maven.model.resolution.UnresolvableModelException;
import org.codehaus.plexus.util.xml.pull.XmlPullParserException;

/**
 * The POMs of the reactor whose root is the {@code spindle.root} system property: each module's as
 * written and as Maven sees it after inheritance (the effective POM that a consumer's build reads).
 * A module is published unless its POM sets {@code maven.deploy.skip} to {@code true}.
 */
final class ReactorPoms {

  final Path root;
  final Model rootPom;
  final Model bomPom;
  final List<Module> modules = new ArrayList<>();

  /** One module of the reactor. */
  static final class Module {
    final Path dir;
    final Model raw;
    final Model effective;

    Module(Path dir, Model raw, Model effective) {
      this.dir = dir;
      this.raw = raw;
      this.effective = effective;
    }

    String artifactId() {
      return raw.getArtifactId();
    }

    boolean published() {
      return "true".equals(raw.getProperties().getProperty("maven.deploy.skip")) == false;
    }

    boolean isJar() {
      return "jar".equals(effective.getPackaging());
    }

    /** The path of a built jar in this module's target folder, e.g. classifier "sources". */
    Path jar(String classifier) {
      String suffix = classifier.isEmpty() ? "" : "-" + classifier;
      return dir.resolve("target")
          .resolve(artifactId() + "-" + effective.getVersion() + suffix + ".jar");
    }

    @Override
    public String toString() {
      return artifactId();
    }
  }

  ReactorPoms() {
    String rootProperty = System.getProperty("spindle.root");
    if (rootProperty == null) {
      throw new IllegalStateException("the spindle.root system property is not set");
    }
    this.root = Path.of(rootProperty).toAbsolutePath().normalize();
    Map<String, Path> workingTree = new HashMap<>();
    Model rootRaw = raw(root.resolve("pom.xml"));
    workingTree.put(rootRaw.getArtifactId(), root.resolve("pom.xml"));
    List<Model> raws = new ArrayList<>();
    for (String name : rootRaw.getModules()) {
      Model raw = raw(root.resolve(name).resolve("pom.xml"));
      raws.add(raw);
      workingTree.put(raw.getArtifactId(), raw.getPomFile().toPath());
    }
    WorkingTreeResolver resolver = new WorkingTreeResolver(workingTree);
    this.rootPom = effective(root.resolve("pom.xml"), resolver);
    Model bom = null;
    for (Model raw : raws) {
      Path pom = raw.getPomFile().toPath();
      Module module = new Module(pom.getParent(), raw, effective(pom, resolver));
      modules.add(module);
      if (module.artifactId().equals("spindle-bom")) {
        bom = module.effective;
      }
    }
    if (bom == null) {
      throw new IllegalStateException("no spindle-bom module in " + root.resolve("pom.xml"));
    }
    this.bomPom = bom;
  }

  Module module(String artifactId) {
    for (Module module : modules) {
      if (module.artifactId().equals(artifactId)) {
        return module;
      }
    }
    throw new AssertionError("no module " + artifactId + " in " + modules);
  }

  static Model raw(Path pom) {
    try (Reader reader = Files.newBufferedReader(pom, StandardCharsets.UTF_8)) {
      Model model = new MavenXpp3Reader().read(reader);
      model.setPomFile(pom.toFile());
      return model;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (XmlPullParserException e) {
      throw new IllegalStateException("cannot parse " + pom + ": " + e.getMessage(), e);
    }
  }

  /** The effective POM, as Maven builds it for a consumer of the artifact. */
  private static Model effective(Path pom, ModelResolver resolver) {
    Properties system = new Properties();
    system.putAll(System.getProperties());
    DefaultModelBuildingRequest request = new DefaultModelBuildingRequest();
    request.setPomFile(pom.toFile());
    request.setValidationLevel(ModelBuildingRequest.VALIDATION_LEVEL_MINIMAL);
    request.setProcessPlugins(false);
    request.setTwoPhaseBuilding(false);
    request.setSystemProperties(system);
    request.setModelResolver(resolver);
    try {
      return new DefaultModelBuilderFactory().newInstance().build(request).getEffectiveModel();
    } catch (ModelBuildingException e) {
      throw new IllegalStateException("cannot build the effective POM of " + pom, e);
    }
  }

  /**
   * Resolves parents and imported BOMs of Spindle's own modules from the working tree. The checks
   * read nothing else, so asking for anything else is a failure.
   */
  @SuppressWarnings("deprecation") // Maven 3's ModelResolver is declared with ModelSource
  private static final class WorkingTreeResolver implements ModelResolver {
    private final Map<String, Path> pomsByArtifactId;

    WorkingTreeResolver(Map<String, Path> pomsByArtifactId) {
      this.pomsByArtifactId = pomsByArtifactId;
    }

    @Override
    public ModelSource resolveModel(String groupId, String artifactId, String version)
        throws UnresolvableModelException {
      Path pom = pomsByArtifactId.get(artifactId);
      if ("dev.spindle".equals(groupId) == false || pom == null) {
        throw new UnresolvableModelException(
            "not a module of the working tree", groupId, artifactId, version);
      }
      return new FileModelSource(pom.toFile());
    }

    @Override
    public ModelSource resolveModel(Parent parent) throws UnresolvableModelException {
      return resolveModel(parent.getGroupId(), parent.getArtifactId(), parent.getVersion());
    }

    @Override
    public ModelSource resolveModel(Dependency dependency) throws UnresolvableModelException {
      return resolveModel(
          dependency.getGroupId(), dependency.getArtifactId(), dependency.getVersion());
    }

    @Override
    public void addRepository(Repository repository) {}

    @Override
    public void addRepository(Repository repository, boolean replace) {}

    @Override
    public ModelResolver newCopy() {
      return this;
    }
  }
}
