package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.ingest.generate.GeneratedFormatsProperties;
import io.specwatch.ingest.generate.LogFormat;
import io.specwatch.ingest.generate.SpecMethod;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.samples.SampleLogsTest;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.SourceLine;
import io.specwatch.schemas.DecodeEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * {@code --raw-fields UNTYPED} (the default) against {@code ALL}: the same lines give the same
 * outcomes and events except for {@code rawFields}, which under UNTYPED is ALL's map without some
 * fields, in the same order; and every field it leaves out is one whose text a typed field of the
 * event holds (the number printed, in the field's unit, or True/False), so nothing but the text's
 * formatting is lost. Checked on the generator's lines of every format family and on the
 * repository's corpora (the mixed-engine log, the demo's engine logs).
 */
public class UntypedRawFieldsProperties {

  private static final Instant INGEST = Instant.parse("2026-12-05T05:00:00Z");
  private static final SourceContext SOURCE =
      new SourceContext("dep", "host", "/var/log/engine.log", "id");
  private static final Pattern NUMBER =
      Pattern.compile("^\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)");

  @Property(tries = 40)
  void untypedEventsLeaveOutOnlyTypedFields(
      @ForAll LogFormat format,
      @ForAll SpecMethod method,
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
    check(GeneratedFormatsProperties.lines(format, method, seed));
  }

  @Example
  void everyEngineFormatOfTheCorporaLeavesFieldsOut() throws IOException {
    List<String> lines =
        new ArrayList<>(Files.readAllLines(Path.of("src/test/resources/mixed/mixed-engines.log")));
    try (Stream<Path> logs = Files.list(SampleLogsTest.DIR)) {
      for (Path log : logs.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
        lines.addAll(Files.readAllLines(log));
      }
    }
    Map<String, Integer> dropped = check(lines);
    assertThat(dropped)
        .containsKeys(
            "sglang.decode_batch",
            "vllm.v1.engine",
            "vllm.v1.spec_decoding.v4",
            "vllm.v0.throughput",
            "vllm.v0.spec_metrics",
            "vllm.v0.stage_times",
            "trtllm.iteration_stats");
  }

  @Example
  void generatedFormatsLeaveFieldsOut() {
    Map<String, Integer> dropped = new TreeMap<>();
    for (LogFormat format : LogFormat.values()) {
      check(GeneratedFormatsProperties.lines(format, SpecMethod.EAGLE3, 7))
          .forEach((f, n) -> dropped.merge(f, n, Integer::sum));
    }
    assertThat(dropped)
        .containsKeys(
            "sglang.decode_batch",
            "vllm.v1.spec_decoding.v1",
            "vllm.v1.spec_decoding.v2",
            "vllm.v1.spec_decoding.v3",
            "vllm.v1.spec_decoding.v4",
            "vllm.v1.engine",
            "trtllm.iteration_stats");
  }

  /** Checks every line; returns the number of fields left out per format. */
  private static Map<String, Integer> check(List<String> lines) {
    LineIngestor untyped = ingestor(RawFieldsPolicy.UNTYPED);
    LineIngestor all = ingestor(RawFieldsPolicy.ALL);
    Map<String, Integer> dropped = new TreeMap<>();
    long n = 0;
    for (String text : lines) {
      n++;
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      List<IngestOutcome> u = untyped.ingest(new SourceLine(n, n * 1000, bytes, text)).parts();
      List<IngestOutcome> a = all.ingest(new SourceLine(n, n * 1000, bytes, text)).parts();
      assertThat(u).as(text).hasSameSizeAs(a);
      for (int i = 0; i < u.size(); i++) {
        assertThat(u.get(i).getClass()).as(text).isEqualTo(a.get(i).getClass());
        if (a.get(i) instanceof IngestOutcome.Event ae) {
          DecodeEvent ue = ((IngestOutcome.Event) u.get(i)).event();
          int left = compare(text, ue, ae.event());
          if (left > 0) {
            dropped.merge(ae.event().getFormat(), left, Integer::sum);
          }
        } else {
          assertThat(u.get(i)).as(text).isEqualTo(a.get(i));
        }
      }
    }
    return dropped;
  }

  private static LineIngestor ingestor(RawFieldsPolicy policy) {
    NormaliseConfig config =
        new NormaliseConfig(
            NormaliseConfig.DEFAULT_DECODE_LOG_INTERVAL,
            ZoneOffset.UTC,
            AcceptRateDefinition.ACCEPTED_OVER_DRAFTED,
            3,
            2026,
            policy);
    return new LineIngestor(
        SOURCE, config, ParserRegistry.defaults(), Clock.fixed(INGEST, ZoneOffset.UTC));
  }

  /** Asserts the events agree but for the left-out fields; returns how many were left out. */
  private static int compare(String text, DecodeEvent untyped, DecodeEvent all) {
    Map<String, String> kept = untyped.getRawFields();
    Map<String, String> every = all.getRawFields();
    assertThat(DecodeEvent.newBuilder(untyped).setRawFields(every).build())
        .as("the event apart from rawFields: %s", text)
        .isEqualTo(all);
    List<String> order = new ArrayList<>(every.keySet());
    order.retainAll(kept.keySet());
    assertThat(new ArrayList<>(kept.keySet()))
        .as("kept names, in line order: %s", text)
        .isEqualTo(order);
    int left = 0;
    for (Map.Entry<String, String> f : every.entrySet()) {
      if (kept.containsKey(f.getKey())) {
        assertThat(kept.get(f.getKey())).as(text).isEqualTo(f.getValue());
      } else {
        typed(f.getKey(), f.getValue(), all, text);
        left++;
      }
    }
    return left;
  }

  /** Asserts that a typed field of e holds the printed text of the left-out field name. */
  private static void typed(String name, String value, DecodeEvent e, String line) {
    String what = name + ": " + value + " in " + line;
    switch (name) {
      case "#running-req", "Running", "numActiveRequests" ->
          number(value, e.getRunningRequests(), what);
      case "#queue-req", "Waiting", "Pending", "numQueuedRequests" ->
          number(value, e.getQueuedRequests(), what);
      case "token usage" -> number(value, e.getTokenUsage(), what);
      case "GPU KV cache usage" -> {
        assertThat(e.getTokenUsage()).as(what).isNotNull();
        number(value, e.getTokenUsage() * 100.0, what); // printed in percent
      }
      case "gen throughput (token/s)", "Avg generation throughput" ->
          number(value, e.getGenThroughputTokS(), what);
      case "accept len", "Mean acceptance length", "specDecodingStats.acceptanceLength" ->
          number(value, e.getAcceptLength(), what);
      case "accept rate", "Draft acceptance rate", "Avg Draft acceptance rate" ->
          number(value, e.getRawAcceptRate(), what);
      case "cuda graph", "npu graph", "cpu graph" ->
          assertThat(e.getCudaGraph())
              .as(what)
              .isEqualTo(Boolean.parseBoolean(value.toLowerCase()));
      case "Per-position acceptance rate" -> {
        String[] parts = value.split(",");
        assertThat(e.getPerPositionAcceptance()).as(what).hasSize(parts.length);
        for (int i = 0; i < parts.length; i++) {
          number(parts[i], e.getPerPositionAcceptance().get(i), what);
        }
      }
      case "Accepted", "Number of accepted tokens", "specDecodingStats.numAcceptedTokens" ->
          number(value, e.getAcceptedTokens(), what);
      case "Drafted", "Number of draft tokens", "specDecodingStats.numDraftTokens" ->
          number(value, e.getDraftedTokens(), what);
      case "Number of emitted tokens" -> number(value, e.getEmittedTokens(), what);
      case "specDecodingStats.numRequestsWithDraftTokens" -> number(value, e.getCycles(), what);
      case "scoring_time_ms" -> number(value, e.getVerifyMs(), what);
      case "verification_time_ms" -> number(value, e.getOverheadMs(), what);
      case "iterLatencyMS" -> number(value, e.getIntervalMs(), what);
      case "specDecodingStats.iterLatencyMS" -> number(value, e.getDraftMs(), what);
      default -> fail("left out a field no typed field is known to hold: " + what);
    }
  }

  private static void number(String text, Number typed, String what) {
    assertThat(typed).as("typed field of " + what).isNotNull();
    Matcher m = NUMBER.matcher(text);
    assertThat(m.find()).as("a number: " + what).isTrue();
    double printed = Double.parseDouble(m.group(1));
    double v = typed.doubleValue();
    assertThat(printed).as(what).isCloseTo(v, within(1e-9 * Math.max(1.0, Math.abs(v))));
  }
}
