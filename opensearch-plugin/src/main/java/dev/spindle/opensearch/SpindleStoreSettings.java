package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectory;
import dev.spindle.store.PageReclaim;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.lucene.store.ReadAdvice;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Setting.Property;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.IndexModule;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.mapper.MapperService;

/**
 * The index settings of the {@value #STORE_TYPE} store type, and how they configure a {@link
 * HybridDirectory.Builder}.
 *
 * <p>Every setting is index-scoped and static: a shard reads them when its directory is created, so
 * a change made on a closed index takes effect when the index is opened again. A value that does
 * not parse is refused, at index creation or at the settings update, with an error that names the
 * setting. Settings that only make sense together with the store type are checked when an index is
 * created ({@link #validateIndexCreation}): a Spindle setting on an index of another store type,
 * OpenSearch's {@code hybridfs} deny-list on a Spindle index, or a preload entry that is not a file
 * extension.
 *
 * <p>OpenSearch's {@code index.store.preload} applies as it does to {@code mmapfs}: its extensions
 * (or {@code *}, every mapped extension) are loaded into memory when mapped.
 *
 * <p>Holds only constants and static methods, all safe to use from any thread.
 */
public final class SpindleStoreSettings {

  /** The store type to give {@code index.store.type}. */
  public static final String STORE_TYPE = "spindle_hybridfs";

  static final String PREFIX = "index.store.spindle.";

  private static final String BY_FILE_KIND = "by_file_kind";
  private static final String DETECT = "detect";
  // UNKNOWN is what detection says where /sys is hidden; a user names the reclaim, or detects.
  private static final Set<PageReclaim> SETTABLE_PAGE_RECLAIMS =
      EnumSet.of(PageReclaim.LRU, PageReclaim.MULTI_GEN_LRU);
  private static final String READ_ADVICE_PREFIX = PREFIX + "read_advice.";

  /**
   * Stands in for a shard's path when a value is checked against the builder's own rules. Declared
   * before the settings, whose defaults are parsed as they are created.
   */
  private static final Path NO_PATH = Path.of("");

  /**
   * The extensions of the files that are memory-mapped; every other file is read through NIO.
   * Defaults to {@link HybridDirectory#DEFAULT_MMAP_EXTENSIONS}.
   */
  public static final Setting<List<String>> MMAP_EXTENSIONS =
      Setting.listSetting(
          PREFIX + "mmap_extensions",
          List.copyOf(new TreeSet<>(HybridDirectory.DEFAULT_MMAP_EXTENSIONS)),
          extension -> checkExtension(PREFIX + "mmap_extensions", extension),
          Property.IndexScope);

  /**
   * The read advice of mapped files with a given extension: {@code
   * index.store.spindle.read_advice.<extension>}, one of {@code normal}, {@code random}, {@code
   * sequential}. Applies outside merges and flushes, and to files of that extension inside compound
   * files.
   */
  public static final Setting.AffixSetting<ReadAdvice> READ_ADVICE =
      Setting.prefixKeySetting(
          READ_ADVICE_PREFIX,
          key ->
              new Setting<>(
                  key,
                  settingValue(ReadAdvice.NORMAL),
                  value -> parseAdviceForExtension(key, value),
                  Property.IndexScope));

  /**
   * The read advice of mapped files whose extension has none of its own: {@value #BY_FILE_KIND}
   * (the default: by how Lucene reads each kind of file, as {@link HybridDirectory} documents), or
   * one of {@code normal}, {@code random}, {@code sequential} for all of them.
   */
  public static final Setting<Optional<ReadAdvice>> DEFAULT_READ_ADVICE =
      new Setting<>(
          PREFIX + "default_read_advice",
          BY_FILE_KIND,
          value ->
              value.equals(BY_FILE_KIND)
                  ? Optional.empty()
                  : Optional.of(parseAdvice(PREFIX + "default_read_advice", value, BY_FILE_KIND)),
          Property.IndexScope);

  /**
   * The page reclaim to choose the default read advice for: {@value #DETECT} (the default, read
   * from the kernel when a shard's directory is created), {@code lru} or {@code multi_gen_lru}.
   */
  public static final Setting<Optional<PageReclaim>> PAGE_RECLAIM =
      new Setting<>(
          PREFIX + "page_reclaim",
          DETECT,
          value ->
              value.equals(DETECT)
                  ? Optional.empty()
                  : Optional.of(
                      parseEnum(PREFIX + "page_reclaim", value, SETTABLE_PAGE_RECLAIMS, DETECT)),
          Property.IndexScope);

  /**
   * Whether a file that cannot be memory-mapped is read through NIO instead (the default); with
   * {@code false}, opening it fails, and with it the shard.
   */
  public static final Setting<Boolean> MAPPING_FALLBACK =
      new Setting<>(
          PREFIX + "mapping_fallback",
          "true",
          value -> parseBoolean(PREFIX + "mapping_fallback", value),
          Property.IndexScope);

  /**
   * How many threads read the stored-fields and term-vectors chunks that are not cached, from 0
   * (the pool off: every prefetch left to Lucene's {@code madvise}, every input Lucene's) to
   * {@value HybridDirectory#MAX_PREFETCH_THREADS}; defaults to the library's, {@value
   * HybridDirectory#DEFAULT_PREFETCH_THREADS}. The shards of every index with the same value share
   * one pool on the node.
   */
  public static final Setting<Integer> PREFETCH_THREADS =
      Setting.intSetting(
          PREFIX + "prefetch_threads",
          HybridDirectory.DEFAULT_PREFETCH_THREADS,
          0,
          HybridDirectory.MAX_PREFETCH_THREADS,
          Property.IndexScope);

  /**
   * How many blocks of 128 KiB the prefetch pool reads stored-fields and term-vectors prefetches
   * into with {@code O_DIRECT}, from 0 (into the page cache) to {@value
   * HybridDirectory#MAX_DIRECT_PREFETCH_BLOCKS}; defaults to {@value
   * HybridDirectory#DEFAULT_DIRECT_PREFETCH_BLOCKS}. Used only with {@link #PREFETCH_THREADS} above
   * 0; indices with the same two values share one pool and its blocks on the node.
   */
  public static final Setting<Integer> DIRECT_PREFETCH_BLOCKS =
      Setting.intSetting(
          PREFIX + "direct_prefetch_blocks",
          HybridDirectory.DEFAULT_DIRECT_PREFETCH_BLOCKS,
          0,
          HybridDirectory.MAX_DIRECT_PREFETCH_BLOCKS,
          Property.IndexScope);

  /** The settings the plugin registers. */
  static final List<Setting<?>> ALL =
      List.of(
          MMAP_EXTENSIONS,
          READ_ADVICE,
          DEFAULT_READ_ADVICE,
          PAGE_RECLAIM,
          MAPPING_FALLBACK,
          PREFETCH_THREADS,
          DIRECT_PREFETCH_BLOCKS);

  private SpindleStoreSettings() {}

  /**
   * Applies an index's settings to a builder.
   *
   * @param builder the builder of a shard's directory
   * @param indexSettings the index's settings
   * @return the builder
   */
  static HybridDirectory.Builder configure(
      HybridDirectory.Builder builder, IndexSettings indexSettings) {
    Settings settings = indexSettings.getSettings();
    Set<String> mapped = Set.copyOf(MMAP_EXTENSIONS.get(settings));
    builder.mmapExtensions(mapped);
    READ_ADVICE
        .getAllConcreteSettings(settings)
        .forEach(
            setting -> builder.readAdvice(extensionOf(setting.getKey()), setting.get(settings)));
    DEFAULT_READ_ADVICE.get(settings).ifPresent(builder::defaultReadAdvice);
    PAGE_RECLAIM.get(settings).ifPresent(builder::pageReclaim);
    builder.preloadExtensions(preloadExtensions(settings, mapped));
    builder.mappingFallback(MAPPING_FALLBACK.get(settings));
    builder.prefetchThreads(PREFETCH_THREADS.get(settings));
    builder.directPrefetchBlocks(DIRECT_PREFETCH_BLOCKS.get(settings));
    return builder;
  }

  /**
   * Checks, when an index is created, what single settings cannot: that Spindle's settings are
   * given to a {@value #STORE_TYPE} index only, that OpenSearch's {@code hybridfs} deny-list is not
   * given to one, that its preload entries are extensions, and that the node allows mappings.
   *
   * @throws IllegalArgumentException naming the setting at fault
   */
  static void validateIndexCreation(MapperService mapperService, IndexSettings indexSettings) {
    Settings settings = indexSettings.getSettings();
    String storeType = IndexModule.INDEX_STORE_TYPE_SETTING.get(settings);
    if (STORE_TYPE.equals(storeType) == false) {
      for (String key : settings.keySet()) {
        if (key.startsWith(PREFIX)) {
          throw new IllegalArgumentException(
              "["
                  + key
                  + "] applies to [index.store.type] ["
                  + STORE_TYPE
                  + "] only, but this index's store type is "
                  + (storeType.isEmpty() ? "the default" : "[" + storeType + "]"));
        }
      }
      return;
    }
    checkMmapAllowed(indexSettings.getNodeSettings());
    if (IndexModule.INDEX_STORE_HYBRID_NIO_EXTENSIONS.exists(settings)) {
      throw new IllegalArgumentException(
          "["
              + IndexModule.INDEX_STORE_HYBRID_NIO_EXTENSIONS.getKey()
              + "] configures the hybridfs store type, not ["
              + STORE_TYPE
              + "]: list the extensions to memory-map in ["
              + MMAP_EXTENSIONS.getKey()
              + "] instead");
    }
    preloadExtensions(settings, Set.copyOf(MMAP_EXTENSIONS.get(settings)));
  }

  /**
   * Refuses to memory-map on a node configured not to, as OpenSearch does for {@code mmapfs} and
   * {@code hybridfs}.
   */
  static void checkMmapAllowed(Settings nodeSettings) {
    if (IndexModule.NODE_STORE_ALLOW_MMAP.get(nodeSettings) == false) {
      throw new IllegalArgumentException(
          "store type ["
              + STORE_TYPE
              + "] is not allowed because ["
              + IndexModule.NODE_STORE_ALLOW_MMAP.getKey()
              + "] is false");
    }
  }

  private static Set<String> preloadExtensions(Settings settings, Set<String> mapped) {
    List<String> preload = IndexModule.INDEX_STORE_PRE_LOAD_SETTING.get(settings);
    if (preload.contains("*")) {
      return mapped;
    }
    for (String extension : preload) {
      checkExtension(IndexModule.INDEX_STORE_PRE_LOAD_SETTING.getKey(), extension);
    }
    return Set.copyOf(preload);
  }

  private static String extensionOf(String readAdviceKey) {
    return readAdviceKey.substring(READ_ADVICE_PREFIX.length());
  }

  /** Checks a value against the rules of {@link HybridDirectory.Builder#mmapExtensions}. */
  private static String checkExtension(String setting, String extension) {
    try {
      HybridDirectory.builder(NO_PATH).mmapExtensions(Set.of(extension));
    } catch (IllegalArgumentException notAnExtension) {
      throw new IllegalArgumentException(
          "["
              + setting
              + "] must list file extensions such as [fdt] or [.fdt], but got ["
              + extension
              + "]",
          notAnExtension);
    }
    return extension;
  }

  private static ReadAdvice parseAdviceForExtension(String key, String value) {
    ReadAdvice advice = parseAdvice(key, value);
    if (key.startsWith(READ_ADVICE_PREFIX) == false) {
      // OpenSearch builds the affix setting once with a placeholder key.
      return advice;
    }
    String extension = extensionOf(key);
    try {
      HybridDirectory.builder(NO_PATH).readAdvice(extension, advice);
    } catch (IllegalArgumentException notAnExtension) {
      throw new IllegalArgumentException(
          "["
              + key
              + "] must end with a file extension, as in ["
              + READ_ADVICE_PREFIX
              + "fdt], but ends with ["
              + extension
              + "]",
          notAnExtension);
    }
    return advice;
  }

  private static ReadAdvice parseAdvice(String key, String value, String... otherValues) {
    return parseEnum(key, value, EnumSet.allOf(ReadAdvice.class), otherValues);
  }

  private static <E extends Enum<E>> E parseEnum(
      String key, String value, Set<E> constants, String... otherValues) {
    for (E constant : constants) {
      if (settingValue(constant).equals(value)) {
        return constant;
      }
    }
    String allowed =
        constants.stream()
            .map(SpindleStoreSettings::settingValue)
            .collect(Collectors.joining("], [", "[", "]"));
    for (String other : otherValues) {
      allowed = "[" + other + "], " + allowed;
    }
    throw new IllegalArgumentException(
        "[" + key + "] must be one of " + allowed + ", but got [" + value + "]");
  }

  private static boolean parseBoolean(String key, String value) {
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              "[" + key + "] must be [true] or [false], but got [" + value + "]");
    };
  }

  private static String settingValue(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }
}
