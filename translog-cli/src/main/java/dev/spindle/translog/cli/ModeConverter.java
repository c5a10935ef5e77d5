package dev.spindle.translog.cli;

import dev.spindle.translog.RecoveryMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Recovery modes as the command line spells them: {@code strict}, {@code tolerate-torn-tail},
 * {@code point-in-time}.
 */
final class ModeConverter implements CommandLine.ITypeConverter<RecoveryMode>, Iterable<String> {

  static String name(RecoveryMode mode) {
    return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public RecoveryMode convert(String value) {
    for (RecoveryMode mode : RecoveryMode.values()) {
      if (name(mode).equals(value)) {
        return mode;
      }
    }
    throw new CommandLine.TypeConversionException(
        "'" + value + "' is not a recovery mode; expected one of " + candidates(true));
  }

  /** The modes' names, for the usage message. */
  @Override
  public Iterator<String> iterator() {
    return candidates(true).iterator();
  }

  static List<String> candidates(boolean withStrict) {
    List<String> names = new ArrayList<>();
    for (RecoveryMode mode : RecoveryMode.values()) {
      if (withStrict || mode != RecoveryMode.STRICT) {
        names.add(name(mode));
      }
    }
    return names;
  }

  /** The modes that cut, for {@code truncate}. */
  static final class Cutting implements CommandLine.ITypeConverter<RecoveryMode>, Iterable<String> {
    @Override
    public RecoveryMode convert(String value) {
      RecoveryMode mode = new ModeConverter().convert(value);
      if (mode == RecoveryMode.STRICT) {
        throw new CommandLine.TypeConversionException(
            "strict cuts nothing; truncate takes one of " + candidates(false));
      }
      return mode;
    }

    @Override
    public Iterator<String> iterator() {
      return candidates(false).iterator();
    }
  }
}
