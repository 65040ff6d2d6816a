package io.specwatch.ingest.cli;

import io.specwatch.ingest.generate.FleetGenerator;
import io.specwatch.ingest.generate.Generate;
import io.specwatch.ingest.generate.GenerateConfig;
import io.specwatch.ingest.generate.KafkaOutput;
import io.specwatch.runtime.Durations;
import io.specwatch.runtime.KafkaOptions;
import io.specwatch.serde.Topics;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code generate}: the synthetic fleet (engine log files and/or Avro records, and a manifest). */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    description =
        "Synthetic fleet: write realistic engine log files (every format family) and/or publish"
            + " DecodeEvent/RequestAcceptance/RunContext records, with scripted episodes and a"
            + " manifest.json of the truth. Deterministic for a seed.")
final class GenerateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--scenario",
      defaultValue = "demo",
      description =
          "demo (named deployments, the seeds' episodes) or fleet (random; default ${DEFAULT-VALUE}).")
  String scenario;

  @Option(
      names = "--deployments",
      defaultValue = "100",
      description = "Fleet size for --scenario fleet (default ${DEFAULT-VALUE}).")
  int deployments;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Random seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--start",
      description =
          "Event-time start, ISO-8601 (default 2026-11-30T16:00:00Z; with --realtime: now).")
  String start;

  @Option(
      names = "--duration",
      defaultValue = "20m",
      description = "Event-time span, e.g. 20m, 2h, PT30M (default ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--out",
      description =
          "Output directory: <deployment>/engine.log, profile.log, requests.jsonl, manifest.json.")
  Path out;

  @Option(
      names = "--publish",
      description = "Publish Avro records to Kafka (see --bootstrap, --registry-url).")
  boolean publish;

  @Option(
      names = "--realtime",
      description = "Write/publish at wall-clock pace (event time = start + elapsed * speed).")
  boolean realtime;

  @Option(
      names = "--speed",
      defaultValue = "1",
      description = "Realtime speed-up (default ${DEFAULT-VALUE}).")
  double speed;

  @Option(
      names = "--only",
      split = ",",
      description = "Generate only these deployment ids (repeatable or comma separated).")
  List<String> only = new ArrayList<>();

  @Mixin KafkaOptions kafka;

  @Option(
      names = "--topic",
      defaultValue = "${env:SPECWATCH_DECODE_TOPIC:-" + Topics.DECODE_EVENTS + "}",
      description = "Decode-events topic (env SPECWATCH_DECODE_TOPIC, default ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--request-topic",
      defaultValue = "${env:SPECWATCH_REQUEST_TOPIC:-" + Topics.REQUEST_ACCEPTANCE + "}",
      description =
          "Request-acceptance topic (env SPECWATCH_REQUEST_TOPIC, default ${DEFAULT-VALUE}).")
  String requestTopic;

  @Option(
      names = "--run-context-topic",
      defaultValue = "${env:SPECWATCH_RUN_CONTEXT_TOPIC:-" + Topics.RUN_CONTEXT + "}",
      description =
          "Run-context topic (env SPECWATCH_RUN_CONTEXT_TOPIC, default ${DEFAULT-VALUE}).")
  String runContextTopic;

  @Option(
      names = "--producer-property",
      description = "Raw Kafka producer setting k=v (repeatable).")
  Map<String, String> producerProperties = Map.of();

  @Override
  public Integer call() throws Exception {
    Instant begin;
    try {
      begin =
          start != null
              ? Instant.parse(start)
              : realtime
                  ? Instant.now().truncatedTo(ChronoUnit.SECONDS)
                  : FleetGenerator.DEFAULT_START;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--start: not an ISO-8601 instant: '" + start + "'", e);
    }
    KafkaOutput.Target target = null;
    if (publish) {
      Map<String, String> raw = new HashMap<>(kafka.rawProperties());
      raw.putAll(producerProperties);
      target =
          new KafkaOutput.Target(
              kafka.bootstrap(), kafka.registryUrl(), topic, requestTopic, runContextTopic, raw);
    }
    GenerateConfig config =
        new GenerateConfig(
            scenario,
            deployments,
            seed,
            begin,
            Durations.parse(duration, "--duration"),
            out,
            target,
            realtime,
            speed,
            only);
    PrintWriter log = spec.commandLine().getErr();
    long t0 = System.nanoTime();
    Generate.Result r = Generate.run(config, nanos -> TimeUnit.NANOSECONDS.sleep(nanos), log);
    long lines =
        r.lineCounts().values().stream()
            .flatMap(m -> m.values().stream())
            .mapToLong(Long::longValue)
            .sum();
    PrintWriter outw = spec.commandLine().getOut();
    outw.printf(
        "generated %s: deployments=%d ticks=%d lines=%d%s in %.1f s%s%n",
        r.scenario().name(),
        r.totals().deployments(),
        r.totals().ticks(),
        lines,
        r.sent() == null
            ? ""
            : String.format(
                " published decode-events=%d requests=%d run-contexts=%d",
                r.sent().decodeEvents(), r.sent().requests(), r.sent().runContexts()),
        (System.nanoTime() - t0) / 1e9,
        out == null ? "" : " -> " + out.resolve("manifest.json"));
    outw.flush();
    return 0;
  }
}
