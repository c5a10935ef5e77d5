package dev.spindle.tests;

import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Damaged copies of a closed {@link Translog}, for recovery tests and for tools that read
 * translogs: the corruption fuzzer of the translog's own tests and the tests of its command-line
 * tool take their damage from here, so both meet the same kinds.
 *
 * <p>{@link #create} writes a translog in two sessions (so it has sealed generations, a live
 * checkpoint that moved on, and a prepared next generation), keeps a copy of its files as the first
 * session closed them, and writes a second translog with another UUID. {@link #damagedCopy} then
 * copies the finished translog and damages the copy, one to three times, each time one of:
 *
 * <ul>
 *   <li>a flipped bit, anywhere in any file;
 *   <li>1 to 64 random bytes written over any place;
 *   <li>a file truncated to a random length, or extended with random bytes;
 *   <li>a file deleted;
 *   <li>a file replaced by the file of the other translog (a foreign UUID): the one of the same
 *       name if there is one, else one of the same kind;
 *   <li>the live checkpoint replaced by the one the first session left (a stale checkpoint).
 * </ul>
 *
 * A stale checkpoint comes alone: together with the loss of the files written after it, it would
 * make a consistent older translog, which no recovery can tell from a real one.
 *
 * <p>The lock file is copied but never damaged: it holds no data.
 *
 * <pre>{@code
 * TranslogDamage damage = TranslogDamage.create(random(), createTempDir(), dir ->
 *     RandomTranslogConfig.builder(random(), dir).build());
 * Path copy = createTempDir();
 * String what = damage.damagedCopy(random(), copy);
 * // open the copy in each recovery mode; every outcome must be a correct recovery or a refusal
 * }</pre>
 *
 * <p>Not thread-safe.
 */
public final class TranslogDamage {

  private static final String LOCK_FILE = "translog.lock";
  private static final String LIVE_CHECKPOINT = "translog.ckp";

  private final Path pristine;
  private final Path earlier;
  private final Path foreign;
  private final List<Long> seqNos;
  private final List<byte[]> payloads;

  private TranslogDamage(
      Path pristine, Path earlier, Path foreign, List<Long> seqNos, List<byte[]> payloads) {
    this.pristine = pristine;
    this.earlier = earlier;
    this.foreign = foreign;
    this.seqNos = List.copyOf(seqNos);
    this.payloads = List.copyOf(payloads);
  }

  /**
   * Writes the translogs to damage, in {@code workDir}: the translog in {@code pristine}, opened,
   * filled and closed twice (the files after the first close are kept in {@code earlier}); another
   * translog in {@code foreign}. Each session appends 1 to 40 random operations, syncs now and then
   * and may roll; the second may also roll before it appends.
   *
   * @param config the configuration of a translog in the given directory: the writer, the roll size
   *     and the rest are the caller's choice
   */
  public static TranslogDamage create(
      Random random, Path workDir, Function<Path, TranslogConfig> config) throws IOException {
    Path pristine = workDir.resolve("pristine");
    Path earlier = workDir.resolve("earlier");
    Path foreign = workDir.resolve("foreign");
    List<Long> seqNos = new ArrayList<>();
    List<byte[]> payloads = new ArrayList<>();
    fill(random, config.apply(pristine), seqNos, payloads);
    copy(pristine, earlier);
    fill(random, config.apply(pristine), seqNos, payloads);
    fill(random, config.apply(foreign), new ArrayList<>(), new ArrayList<>());
    return new TranslogDamage(pristine, earlier, foreign, seqNos, payloads);
  }

  private static void fill(
      Random random, TranslogConfig config, List<Long> seqNos, List<byte[]> payloads)
      throws IOException {
    try (Translog translog = Translog.open(config)) {
      if (random.nextInt(8) == 0) {
        translog.rollGeneration();
      }
      int count = 1 + random.nextInt(40);
      for (int i = 0; i < count; i++) {
        byte[] payload = new byte[random.nextInt(150)];
        random.nextBytes(payload);
        seqNos.add(translog.append(payload).seqNo());
        payloads.add(payload);
        if (random.nextInt(8) == 0) {
          translog.sync();
        }
        if (random.nextInt(30) == 0) {
          translog.rollGeneration();
        }
      }
    }
  }

  /** The undamaged translog's directory. Leave it as it is. */
  public Path pristine() {
    return pristine;
  }

  /** How many operations the translog holds. */
  public int operations() {
    return seqNos.size();
  }

  /** The sequence number of the {@code i}-th operation appended. */
  public long seqNo(int i) {
    return seqNos.get(i);
  }

  /** The payload of the {@code i}-th operation appended; a copy. */
  public byte[] payload(int i) {
    return payloads.get(i).clone();
  }

  /**
   * Copies the translog into {@code target} (created if missing) and damages the copy.
   *
   * @return what was done, for assertion messages
   */
  public String damagedCopy(Random random, Path target) throws IOException {
    copy(pristine, target);
    List<String> names = translogFiles(target);
    names.remove(LOCK_FILE);
    if (random.nextInt(12) == 0) {
      Files.copy(
          earlier.resolve(LIVE_CHECKPOINT),
          target.resolve(LIVE_CHECKPOINT),
          StandardCopyOption.REPLACE_EXISTING);
      return "replaced " + LIVE_CHECKPOINT + " by the stale one of the first session";
    }
    StringBuilder done = new StringBuilder();
    int steps = 1 + (random.nextInt(4) == 0 ? random.nextInt(3) : 0);
    for (int step = 0; step < steps; step++) {
      String name = names.get(random.nextInt(names.size()));
      Path file = target.resolve(name);
      if (Files.exists(file) == false) {
        continue;
      }
      done.append(damage(random, file, name)).append("; ");
    }
    return done.toString();
  }

  private String damage(Random random, Path file, String name) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    switch (random.nextInt(11)) {
      case 0, 1, 2, 3, 4 -> {
        if (bytes.length == 0) {
          return "nothing (" + name + " is empty)";
        }
        int offset = random.nextInt(bytes.length);
        int bit = random.nextInt(8);
        bytes[offset] ^= (byte) (1 << bit);
        Files.write(file, bytes);
        return "flipped bit " + bit + " at " + offset + " of " + name;
      }
      case 5 -> {
        int offset = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
        int length = Math.min(bytes.length - offset, 1 + random.nextInt(64));
        byte[] garbage = new byte[length];
        random.nextBytes(garbage);
        System.arraycopy(garbage, 0, bytes, offset, length);
        Files.write(file, bytes);
        return "overwrote " + length + " bytes at " + offset + " of " + name;
      }
      case 6, 7 -> {
        int length = random.nextInt(bytes.length + 1);
        Files.write(file, Arrays.copyOf(bytes, length));
        return "truncated " + name + " to " + length;
      }
      case 8 -> {
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(100));
        for (int i = bytes.length; i < longer.length; i++) {
          longer[i] = (byte) random.nextInt(256);
        }
        Files.write(file, longer);
        return "appended " + (longer.length - bytes.length) + " random bytes to " + name;
      }
      case 9 -> {
        Files.delete(file);
        return "deleted " + name;
      }
      default -> {
        Path replacement = foreign.resolve(name);
        if (Files.exists(replacement) == false) {
          List<String> sameKind = new ArrayList<>();
          for (String candidate : translogFiles(foreign)) {
            if (candidate.equals(LOCK_FILE) == false && kind(candidate).equals(kind(name))) {
              sameKind.add(candidate);
            }
          }
          if (sameKind.isEmpty()) {
            return "nothing (the other translog has no file like " + name + ")";
          }
          replacement = foreign.resolve(sameKind.get(random.nextInt(sameKind.size())));
        }
        Files.copy(replacement, file, StandardCopyOption.REPLACE_EXISTING);
        return "replaced " + name + " by the other translog's " + replacement.getFileName();
      }
    }
  }

  /** {@code .tlog}, {@code .ckp}, or the whole name for the live checkpoint and other files. */
  private static String kind(String name) {
    if (name.equals(LIVE_CHECKPOINT)) {
      return name;
    }
    int dot = name.indexOf('.');
    return dot < 0 ? name : name.substring(dot);
  }

  /**
   * Copies the files of a translog directory, those whose names start with {@code translog}, into
   * {@code to}, created if missing. Other files (a test file system may add some) are left out.
   */
  public static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    for (String name : translogFiles(from)) {
      Files.copy(from.resolve(name), to.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static List<String> translogFiles(Path directory) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "translog*")) {
      for (Path file : stream) {
        if (Files.isRegularFile(file)) {
          names.add(file.getFileName().toString());
        }
      }
    }
    Collections.sort(names);
    return names;
  }
}
