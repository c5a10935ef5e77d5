package dev.spindle.translog.cli;

import dev.spindle.translog.Operation;
import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import dev.spindle.translog.inspect.GenerationRecords;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dump DIR}: every record that verifies, one per line, as text or JSON lines. Reads each
 * generation by the rules recovery reads by; where damage ends a generation early, says so on
 * standard error and goes on with the next generation.
 */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the operations that verify, one per line, as text or JSON.",
      "",
      "Prints the operations of the translog, one per line, in log order: seqNo, generation,"
          + " offset, length (the record's size, framing included), the record's stored CRC32C,"
          + " and the payload if asked. Reads the generations the live checkpoint names (every"
          + " generation file if it is unreadable), each record verified, by the rules recovery"
          + " reads by. Damage that ends a generation early is reported on standard error, naming"
          + " the file and offset; the records of later generations are still printed ('verify'"
          + " says which ones recovery keeps). Changes nothing.",
      "Exit code: 0 every generation read to its end, 1 damage ended one early, 3 locked, 4"
          + " unreadable."
    },
    footer = {
      "",
      "Examples:",
      "  spindle-translog dump --from 1000 /var/lib/app/translog",
      "  spindle-translog dump --format json --payload base64 /var/lib/app/translog | jq .seqNo"
    })
final class DumpCommand extends DirectoryCommand {

  enum Format {
    text,
    json
  }

  enum Payload {
    none,
    hex,
    base64
  }

  @Option(
      names = "--from",
      paramLabel = "SEQNO",
      description = "only operations with a seqNo of at least this")
  long from = 0;

  @Option(
      names = "--to",
      paramLabel = "SEQNO",
      description = "only operations with a seqNo of at most this")
  long to = Long.MAX_VALUE;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description =
          "${COMPLETION-CANDIDATES}: key=value text, or one JSON object per line"
              + " (default: ${DEFAULT-VALUE})")
  Format format;

  @Option(
      names = "--payload",
      paramLabel = "ENCODING",
      defaultValue = "none",
      description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  Payload payload;

  @Override
  int run(TranslogInspector inspector) throws IOException {
    PrintWriter out = out();
    boolean damaged = false;
    for (long generation : generations(inspector)) {
      try (GenerationRecords records = inspector.readRecords(generation)) {
        for (Operation operation = records.next(); operation != null; operation = records.next()) {
          if (operation.seqNo() >= from && operation.seqNo() <= to) {
            out.println(format == Format.json ? json(operation) : text(operation));
          }
        }
        if (records.damage().isPresent()) {
          damaged = true;
          error(
              "generation "
                  + generation
                  + ": the records that verify end at offset "
                  + records.position()
                  + " of "
                  + records.file()
                  + ": "
                  + records.damage().get().getMessage());
        }
      }
    }
    return damaged ? ExitCodes.RECOVERABLE : ExitCodes.CLEAN;
  }

  /**
   * The generations the translog holds, as the live checkpoint names them; without a valid one,
   * every generation with a file.
   */
  private static List<Long> generations(TranslogInspector inspector) throws IOException {
    List<Long> generations = new ArrayList<>();
    Optional<CheckpointInfo> live = inspector.liveCheckpoint();
    if (live.isPresent()) {
      for (long g = live.get().minGeneration(); g <= live.get().generation(); g++) {
        generations.add(g);
      }
    } else {
      for (GenerationInfo generation : inspector.generations()) {
        if (generation.fileSize() >= 0) {
          generations.add(generation.generation());
        }
      }
    }
    return generations;
  }

  private String text(Operation operation) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "seqNo=%d generation=%d offset=%d length=%d checksum=0x%08x",
                operation.seqNo(),
                operation.location().generation(),
                operation.location().offset(),
                operation.location().size(),
                operation.checksum()));
    if (payload != Payload.none) {
      line.append(" payload=").append(encode(operation.payload()));
    }
    return line.toString();
  }

  private String json(Operation operation) {
    JsonLine line =
        new JsonLine()
            .field("seqNo", operation.seqNo())
            .field("generation", operation.location().generation())
            .field("offset", operation.location().offset())
            .field("length", operation.location().size())
            .field("checksum", String.format(Locale.ROOT, "0x%08x", operation.checksum()));
    if (payload != Payload.none) {
      line.field("payload", encode(operation.payload()));
    }
    return line.toString();
  }

  private String encode(byte[] bytes) {
    return payload == Payload.hex
        ? HexFormat.of().formatHex(bytes)
        : Base64.getEncoder().encodeToString(bytes);
  }
}
