package io.specwatch.sink.cli;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.finetune.FinetuneCriteria;
import io.specwatch.sink.finetune.FinetuneExport;
import io.specwatch.sink.finetune.FinetuneSelector;
import io.specwatch.sink.finetune.Selection;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code select-finetune}: requests where the drafter fails most, as JSONL plus a summary. */
@Command(
    name = "select-finetune",
    description =
        "Select the requests where the drafter fails most (lowest tau relative to their prompt"
            + " category), deduplicated by prompt and balanced across categories; write them as"
            + " JSON lines and print a summary table.")
public final class SelectFinetuneCommand implements Callable<Integer> {

  @Mixin ClickHouseOptions clickhouse;

  @Option(
      names = "--from",
      required = true,
      description = "First finish time included: 2026-03-14, 2026-03-14T02:00:00Z (UTC).")
  String from;

  @Option(names = "--to", required = true, description = "End of the range, excluded (UTC).")
  String to;

  @Option(names = "--deployment", description = "Only this deployment id.")
  String deployment;

  @Option(names = "--model", description = "Only this target model.")
  String model;

  @Option(names = "--draft-model-version", description = "Only this draft-model version.")
  String draftModelVersion;

  @Option(
      names = "--min-output-tokens",
      defaultValue = "" + FinetuneCriteria.DEFAULT_MIN_OUTPUT_TOKENS,
      description = "Skip requests with fewer output tokens (default ${DEFAULT-VALUE}).")
  long minOutputTokens;

  @Option(
      names = "--limit",
      defaultValue = "" + FinetuneCriteria.DEFAULT_LIMIT,
      description = "At most this many prompts in total (default ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--max-relative-tau",
      defaultValue = "" + FinetuneCriteria.DEFAULT_MAX_RELATIVE_TAU,
      description =
          "Only prompts with tau below this times their category's median (default ${DEFAULT-VALUE}).")
  double maxRelativeTau;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "-",
      description =
          "JSON lines file; '-' (default) writes them to stdout and the summary to stderr.")
  String output;

  @Override
  public Integer call() throws IOException {
    FinetuneCriteria criteria = criteria();
    ClickHouseConfig config = clickhouse.toConfig();
    Selection selection;
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      selection = new FinetuneSelector(sql, config.database()).select(criteria);
    }
    PrintStream summaryOut = System.out;
    if ("-".equals(output)) {
      FinetuneExport.writeJsonLines(selection, System.out);
      summaryOut = System.err;
    } else {
      Path file = Path.of(output);
      try (OutputStream out = Files.newOutputStream(file)) {
        FinetuneExport.writeJsonLines(selection, out);
      }
      summaryOut.println("wrote " + selection.selected().size() + " lines to " + file);
    }
    summaryOut.print(FinetuneExport.summary(selection));
    return 0;
  }

  FinetuneCriteria criteria() {
    return new FinetuneCriteria(
        instant("--from", from),
        instant("--to", to),
        Optional.ofNullable(deployment),
        Optional.ofNullable(model),
        Optional.ofNullable(draftModelVersion),
        minOutputTokens,
        limit,
        maxRelativeTau);
  }

  /** {@code 2026-03-14}, {@code 2026-03-14T02:00:00Z} or {@code 2026-03-14 02:00:00} (UTC). */
  static Instant instant(String option, String value) {
    String v = value.strip();
    try {
      if (v.length() == 10) {
        return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      v = v.replace(' ', 'T');
      return v.endsWith("Z") ? Instant.parse(v) : Instant.parse(v + "Z");
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          option
              + " must be a date or a UTC time (2026-03-14, 2026-03-14T02:00:00Z), got: "
              + value,
          e);
    }
  }
}
