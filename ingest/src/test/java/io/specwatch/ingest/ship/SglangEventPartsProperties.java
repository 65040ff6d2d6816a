package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.normalise.AcceptRateDefinition;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.RawFieldsPolicy;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatch;
import io.specwatch.ingest.testing.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@code ship}'s SGLang path ({@link SglangEventWriter} on a parse thread, {@link
 * LineIngestor#ingest(SglangEventParts, Instant)} and {@link SglangEventParts#assemble} on the
 * sending thread), and {@code tail}'s {@link LineIngestor#ingestWritingAhead}, publish the bytes
 * the normaliser's way publishes ({@link LineIngestor}'s event, encoded by {@link
 * DecodeEventEncoder}): over sequences of SGLang lines of one source with ranks, repeated,
 * advancing and backward times, lines without a time, implausible values, run context lines in
 * between, and every normalisation setting, fed in file order the same outcomes part by part, byte
 * for byte; implausible lines take the normaliser's way (the writer gives null).
 */
class SglangEventPartsProperties {

  private static final int SCHEMA_ID = 77;
  private static final Instant NOW = Instant.parse("2026-12-05T02:00:00.250Z");
  private final ParserRegistry parsers = ParserRegistry.defaults();

  /**
   * What each path published ({@code ship}'s split between threads, {@code tail}'s {@link
   * LineIngestor#ingestWritingAhead}) and how often the written-ahead path took a line.
   */
  private record Run(
      List<Object> regular, List<Object> written, List<Object> tail, int ahead, int dead) {}

  private Run run(SourceContext source, NormaliseConfig config, List<String> texts) {
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    LineIngestor regular = new LineIngestor(source, config, parsers, clock);
    LineIngestor written = new LineIngestor(source, config, parsers, clock);
    ManualClock tailClock = new ManualClock(NOW); // tail reads the ingest time from its clock
    LineIngestor tail = new LineIngestor(source, config, parsers, tailClock);
    List<Object> t = new ArrayList<>();
    SglangEventWriter writer = new SglangEventWriter(source, config);
    DecodeEventEncoder encoder = new DecodeEventEncoder();
    List<Object> a = new ArrayList<>();
    List<Object> b = new ArrayList<>();
    int ahead = 0;
    int dead = 0;
    long offset = 0;
    for (int n = 0; n < texts.size(); n++) {
      String text = texts.get(n);
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      SourceLine line = new SourceLine(n + 1, offset, bytes, text);
      offset += bytes.length + 1;
      Instant now = NOW.plusMillis(37L * n);
      ParseResult parsed = LineIngestor.parse(parsers, line);
      String id = parsed instanceof ParseResult.Parsed ? LineIngestor.eventId(source, line) : null;
      IngestOutcome r = regular.ingest(line, parsed, id, now);
      SglangEventParts parts =
          parsed instanceof ParseResult.Parsed p && p.line() instanceof SglangDecodeBatch batch
              ? writer.write(batch, id, line)
              : null;
      IngestOutcome w =
          parts != null ? written.ingest(parts, now) : written.ingest(line, parsed, id, now);
      ahead += parts != null ? 1 : 0;
      tailClock.now = now;
      for (IngestOutcome part : tail.ingestWritingAhead(line).parts()) {
        t.add(published(part, encoder));
      }
      for (IngestOutcome part : r.parts()) {
        dead += part instanceof IngestOutcome.Dead ? 1 : 0;
        a.add(published(part, encoder));
      }
      for (IngestOutcome part : w.parts()) {
        b.add(published(part, encoder));
      }
    }
    return new Run(a, b, t, ahead, dead);
  }

  /** What a part puts on a topic: the event's bytes, or the record itself. */
  private static Object published(IngestOutcome part, DecodeEventEncoder encoder) {
    if (part instanceof IngestOutcome.Event e) {
      return List.of(encoder.encode(SCHEMA_ID, e.event()));
    }
    if (part instanceof IngestOutcome.PreEncoded p) {
      return List.of(
          p.event()
              .assemble(
                  SCHEMA_ID,
                  p.eventTimeMs(),
                  p.ingestTimeMs(),
                  p.intervalMs(),
                  p.cycleMs(),
                  SglangEventParts.contextField(p.runContextId())));
    }
    return part;
  }

  @Property(tries = 300)
  void theWrittenAheadEventsAreTheNormalisersBytes(
      @ForAll("sources") SourceContext source,
      @ForAll("configs") NormaliseConfig config,
      @ForAll("logs") List<String> texts) {
    Run run = run(source, config, texts);
    assertSamePublished(run.regular(), run.written(), texts);
    assertSamePublished(run.regular(), run.tail(), texts);
  }

  private static void assertSamePublished(
      List<Object> expected, List<Object> actual, List<String> texts) {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      Object x = expected.get(i);
      Object y = actual.get(i);
      if (x instanceof List<?> xs && y instanceof List<?> ys) {
        assertThat((byte[]) ys.get(0)).as("event %d of %s", i, texts).isEqualTo((byte[]) xs.get(0));
      } else {
        assertThat(y).as("part %d of %s", i, texts).isEqualTo(x);
      }
    }
  }

  @Example
  void theWriterTakesMostLinesAndLeavesTheImplausibleOnes() {
    int ahead = 0;
    int dead = 0;
    int lines = 0;
    for (List<String> texts : logs().sampleStream().limit(200).toList()) {
      Run run =
          run(
              new SourceContext("d", "h", "/var/log/sglang.log", "id"),
              NormaliseConfig.defaults(),
              texts);
      ahead += run.ahead();
      dead += run.dead();
      lines += texts.size();
    }
    assertThat(ahead).as("lines written ahead of %s", lines).isGreaterThan(lines / 3);
    assertThat(dead).as("implausible lines dead-lettered").isGreaterThan(10);
  }

  @Provide
  Arbitrary<SourceContext> sources() {
    return Combinators.combine(
            Arbitraries.of("kimi-eagle3", "dé-ployment-ü", "d"),
            Arbitraries.of("gpu-host-7", "h"),
            Arbitraries.of("/var/log/sglang/server.log", "/tmp/ß/log"))
        .as((d, h, s) -> new SourceContext(d, h, s, "dev1-ino2-abc"));
  }

  @Provide
  Arbitrary<NormaliseConfig> configs() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 64),
            Arbitraries.of(ZoneId.of("UTC"), ZoneId.of("Asia/Shanghai")),
            Arbitraries.of(AcceptRateDefinition.class),
            Arbitraries.integers().between(1, 7).injectNull(0.3),
            Arbitraries.of(RawFieldsPolicy.class))
        .as(
            (interval, zone, rate, steps, raw) ->
                new NormaliseConfig(interval, zone, rate, steps, null, raw));
  }

  @Provide
  Arbitrary<List<String>> logs() {
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(12, decodeLines()),
            net.jqwik.api.Tuple.of(
                1, Arbitraries.of(RunContextShipIT.SERVER_ARGS, RunContextShipIT.RUN_CONTEXT)),
            net.jqwik.api.Tuple.of(1, Arbitraries.of("GET /health HTTP/1.1 200", "")))
        .list()
        .ofMinSize(1)
        .ofMaxSize(40);
  }

  private Arbitrary<String> decodeLines() {
    Arbitrary<String> prefix =
        Combinators.combine(
                Arbitraries.integers().between(0, 4), // minute offset: repeats, advances, goes back
                Arbitraries.integers().between(0, 59),
                Arbitraries.of(" TP0", " TP1", " DP1 TP1", " TP0 EP0", ""))
            .as((m, s, rank) -> String.format("[2026-11-30 17:%02d:%02d%s] ", m, s, rank));
    Arbitrary<String> fields =
        Combinators.combine(
                Arbitraries.integers().between(0, 300),
                Arbitraries.of("0.02", "0.91", "1.5"),
                Arbitraries.of(
                    "",
                    "accept len: 2.41, ",
                    "accept len: 0.50, ",
                    "accept len: 1.00, ",
                    "accept len: 2000.00, "),
                Arbitraries.of(
                    "", "accept rate: 0.47, ", "accept rate: 0.99, ", "accept rate: 3.5, "),
                Arbitraries.of("", "cuda graph: True, ", "npu graph: False, "),
                Arbitraries.of("240.00", "0.00", "2000000000.00"),
                Arbitraries.integers().between(0, 9))
            .as(
                (running, usage, tau, rate, graph, tput, queued) ->
                    "Decode batch. #running-req: "
                        + running
                        + ", #token: 1200, token usage: "
                        + usage
                        + ", "
                        + tau
                        + rate
                        + graph
                        + "gen throughput (token/s): "
                        + tput
                        + ", #queue-req: "
                        + queued
                        + ", ");
    return Combinators.combine(Arbitraries.of("", "").injectDuplicates(0), prefix, fields)
        .as((unused, p, f) -> p + f);
  }
}
