package io.specwatch.ingest.generate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.ingest.normalise.AcceptRateDefinition;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.SourceLine;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Every format family round-trips from the generator: generated lines parse with {@code
 * ParserRegistry.defaults()} and the normaliser into values matching the simulated truth (tau,
 * accepted/drafted tokens, cycle ms, running requests) within print rounding; nothing is
 * dead-lettered.
 */
public class GeneratedFormatsProperties {

  private static final Instant START = Instant.parse("2026-11-30T16:00:00Z");

  /** Lines written during one tick, with the ticks they summarise. */
  private record Written(String file, String text, Tick tick, List<Tick> sinceLastMetric) {}

  @Property(tries = 60)
  void everyFormatFamilyRoundTrips(
      @ForAll LogFormat format,
      @ForAll boolean speculative,
      @ForAll SpecMethod method,
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed,
      @ForAll @IntRange(min = 2, max = 4) int k,
      @ForAll @DoubleRange(min = 1, max = 6) double meanBatch) {
    Assume.that(speculative || format != LogFormat.SPECWATCH_CYCLE);
    Assume.that(method != SpecMethod.NONE);
    roundTrip(format, speculative ? method : SpecMethod.NONE, seed, k, meanBatch);
  }

  /** Generates one deployment of the format and checks every line against the truth. */
  static void roundTrip(LogFormat format, SpecMethod method, long seed, int k, double meanBatch) {
    boolean speculative = method.speculative();
    DeploymentSpec d = deployment(format, method, k, meanBatch, seed);
    Duration span = format.passesPerTick() == 1 ? Duration.ofSeconds(20) : Duration.ofSeconds(95);
    List<Written> lines = generate(d, seed, span);
    assertThat(lines).isNotEmpty();

    NormaliseConfig config =
        new NormaliseConfig(
            NormaliseConfig.DEFAULT_DECODE_LOG_INTERVAL,
            ZoneOffset.UTC,
            AcceptRateDefinition.ACCEPTED_OVER_DRAFTED,
            k,
            2026);
    Map<String, LineIngestor> ingestors = new LinkedHashMap<>();
    Map<String, Long> numbers = new LinkedHashMap<>();
    int events = 0;
    int requests = 0;
    int contexts = 0;
    for (Written w : lines) {
      LineIngestor in =
          ingestors.computeIfAbsent(
              w.file(),
              f ->
                  new LineIngestor(
                      new SourceContext(d.id(), d.host(), f, "id"),
                      config,
                      ParserRegistry.defaults(),
                      Clock.fixed(START, ZoneOffset.UTC)));
      long n = numbers.merge(w.file(), 1L, Long::sum);
      byte[] bytes = w.text().getBytes(StandardCharsets.UTF_8);
      IngestOutcome o = in.ingest(new SourceLine(n, n * 1000, bytes, w.text()));
      assertThat(o)
          .as("every generated line is recognised: %s", w.text())
          .isNotInstanceOf(IngestOutcome.Unrecognised.class);
      for (IngestOutcome part : o.parts()) {
        assertThat(part).as("line %s", w.text()).isNotInstanceOf(IngestOutcome.Dead.class);
        if (part instanceof IngestOutcome.Event e) {
          checkEvent(d, k, w, e.event());
          events++;
        } else if (part instanceof IngestOutcome.Request r) {
          checkRequest(w, r.request());
          requests++;
        } else if (part instanceof IngestOutcome.Context c) {
          checkContext(d, w, c.runContext());
          contexts++;
        } else {
          assertThat(part).as(w.text()).isInstanceOf(IngestOutcome.Recognised.class);
        }
      }
    }
    // a run context from the startup line (SGLang, vLLM) or the run_context line (instrumented)
    assertThat(contexts).isEqualTo(format == LogFormat.TRTLLM_ITERATION_STATS ? 0 : 1);
    assertThat(events).isPositive();
    if (speculative && span.getSeconds() > 60) {
      assertThat(requests).isPositive();
    }
  }

  static DeploymentSpec deployment(
      LogFormat format, SpecMethod method, int k, double meanBatch, long seed) {
    boolean speculative = method.speculative();
    Rng r = new Rng(seed);
    Map<String, List<Double>> alphas = new LinkedHashMap<>();
    Map<String, Double> weights = new LinkedHashMap<>();
    for (String c : new String[] {"chat", "code"}) {
      List<Double> a = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        a.add(0.2 + 0.75 * r.uniform());
      }
      alphas.put(c, a);
      weights.put(c, 0.5 + r.uniform());
    }
    PerfModel perf = new PerfModel(10, 0.5, 12, 1, 0.05, 0.03, 0.02);
    RunContextSpec ctx = new RunContextSpec("0.5.6", "abc1234", r.chance(0.5), Map.of());
    return new DeploymentSpec(
        "rt-" + format.name().toLowerCase(Locale.ROOT),
        "gpu-rt",
        format,
        format.isSglang() ? RequestFormat.SGLANG_META_INFO : RequestFormat.REQUEST_V1,
        true,
        "org/model",
        "org/draft",
        "v1",
        method,
        speculative ? k : 0,
        1,
        speculative ? k : 0,
        new Hardware("H100 SXM", 1, "NVLink", "h100x1"),
        1,
        meanBatch,
        (int) Math.ceil(meanBatch * 2),
        200,
        500_000,
        null,
        List.of(new Segment(START, perf, new Acceptance(alphas, weights), ctx)),
        Map.of());
  }

  /**
   * The text of every line the generator writes for one deployment of format (engine log, and for a
   * speculative method the request and phase-profile logs): a corpus for other parser tests.
   */
  public static List<String> lines(LogFormat format, SpecMethod method, long seed) {
    List<String> texts = new ArrayList<>();
    for (Written w :
        generate(deployment(format, method, 3, 3, seed), seed, Duration.ofSeconds(95))) {
      texts.add(w.text());
    }
    return texts;
  }

  static List<Written> generate(DeploymentSpec d, long seed, Duration span) {
    DeploymentSimulator sim = new DeploymentSimulator(d, seed, START, START.plus(span));
    List<FormatWriter> writers =
        d.method().speculative()
            ? List.of(FormatWriter.engineLog(d), new RequestWriter(d), new PhaseProfileWriter())
            : List.of(FormatWriter.engineLog(d));
    List<Written> out = new ArrayList<>();
    List<Tick> engine = new ArrayList<>();
    List<Tick> profile = new ArrayList<>();
    for (Tick t = sim.next(); t != null; t = sim.next()) {
      engine.add(t);
      profile.add(t);
      List<String[]> now = new ArrayList<>();
      for (FormatWriter w : writers) {
        w.tick(t, (file, time, text) -> now.add(new String[] {file, text}));
      }
      List<Tick> engineSummary = List.copyOf(engine);
      List<Tick> profileSummary = List.copyOf(profile);
      for (String[] l : now) {
        boolean isProfile = l[0].equals(LineSink.PROFILE_LOG);
        out.add(new Written(l[0], l[1], t, isProfile ? profileSummary : engineSummary));
        if (isProfile) {
          profile.clear();
        } else if (l[0].equals(LineSink.ENGINE_LOG) && !l[1].contains(" LLM engine (v")) {
          engine.clear();
        }
      }
    }
    return out;
  }

  private static void checkEvent(DeploymentSpec d, int k, Written w, DecodeEvent e) {
    Tick t = w.tick();
    boolean spec = d.method().speculative();
    if (w.file().equals(LineSink.PROFILE_LOG)) {
      checkProfile(w, e);
      return;
    }
    switch (d.format()) {
      case SGLANG_2025_EARLY, SGLANG_2025_MID, SGLANG_2025_OCT, SGLANG_2026 -> {
        assertThat(e.getFormat()).isEqualTo("sglang.decode_batch");
        assertThat(e.getEventTime()).isEqualTo(t.end().truncatedTo(ChronoUnit.SECONDS));
        assertThat(e.getRunningRequests()).isEqualTo(t.running());
        assertThat(e.getCycles()).isEqualTo(t.cycles());
        assertThat(e.getGenThroughputTokS())
            .isCloseTo(t.emitted() * 1000.0 / t.durationMs(), within(0.0051));
        if (d.format() != LogFormat.SGLANG_2025_EARLY) {
          assertThat(e.getCudaGraph()).isEqualTo(t.segment().context().cudaGraph());
        }
        if (spec) {
          double tau = 1.0 + (double) t.accepted() / t.cycles();
          assertThat(e.getAcceptLength()).isCloseTo(tau, within(0.0051));
          assertThat((double) e.getAcceptedTokens())
              .isCloseTo(t.accepted(), within(0.0051 * t.cycles() + 1));
          if (d.format() == LogFormat.SGLANG_2025_OCT || d.format() == LogFormat.SGLANG_2026) {
            assertThat(e.getAcceptRate())
                .isCloseTo((double) t.accepted() / (t.cycles() * k), within(0.0051));
          }
        } else {
          assertThat(e.getAcceptLength()).isNull();
          assertThat(e.getSpecEnabled()).isFalse();
        }
      }
      case VLLM_V1_SPEC_V1, VLLM_V1_SPEC_V2, VLLM_V1_SPEC_V3, VLLM_V1_SPEC_V4, VLLM_V0 ->
          checkVllm(d, k, w, e);
      case TRTLLM_ITERATION_STATS -> {
        assertThat(e.getFormat()).isEqualTo("trtllm.iteration_stats");
        assertThat(e.getCycleMs()).isCloseTo(t.cycleMs(), within(0.00051));
        assertThat(e.getRunningRequests()).isEqualTo(t.running());
        assertThat(e.getSpecEnabled()).isEqualTo(spec);
        if (spec) {
          assertThat(e.getCycles()).isEqualTo(t.running());
          assertThat(e.getAcceptedTokens()).isEqualTo(t.accepted());
          assertThat(e.getDraftedTokens()).isEqualTo((long) t.running() * k);
          assertThat(e.getAcceptLength())
              .isCloseTo(1.0 + (double) t.accepted() / t.running(), within(0.000051));
          assertThat(e.getDraftMs()).isCloseTo(t.draftMs(), within(0.00051));
        }
      }
      case SPECWATCH_CYCLE -> {
        assertThat(e.getFormat()).isEqualTo("specwatch.cycle");
        assertThat(e.getKind().name()).isEqualTo("CYCLE");
        assertThat(e.getEventTime()).isEqualTo(t.end().truncatedTo(ChronoUnit.MILLIS));
        assertThat(e.getRunningRequests()).isEqualTo(t.running());
        assertThat(e.getAcceptedTokens()).isEqualTo(t.accepted());
        assertThat(e.getDraftedTokens()).isEqualTo((long) t.running() * k);
        assertThat(e.getAcceptLength())
            .isCloseTo(1.0 + (double) t.accepted() / t.running(), within(1e-9));
        assertThat(e.getCycleMs()).isCloseTo(t.cycleMs(), within(0.00051));
        assertThat(e.getDraftMs()).isCloseTo(t.draftMs(), within(0.00051));
        assertThat(e.getVerifyMs()).isCloseTo(t.verifyMs(), within(0.00051));
        assertThat(e.getOverheadMs()).isCloseTo(t.overheadMs(), within(0.00051));
        long[] position = t.positionAccepted(k);
        for (int i = 0; i < k; i++) {
          assertThat(e.getPerPositionAccepted().get(i)).isEqualTo(position[i]);
        }
        assertThat(e.getRunContextId())
            .isEqualTo(EventRecords.runContext(d, t.segment(), t.start()).getContextId());
      }
      default -> throw new AssertionError("unexpected event from " + d.format() + ": " + e);
    }
  }

  private static void checkVllm(DeploymentSpec d, int k, Written w, DecodeEvent e) {
    Tick t = w.tick();
    IntervalTotals s = new IntervalTotals(d.method().speculative() ? k : 0);
    w.sinceLastMetric().forEach(s::add);
    if (e.getFormat().endsWith("throughput") || e.getFormat().endsWith("engine")) {
      assertThat(e.getSpecEnabled()).isFalse();
      assertThat(e.getRunningRequests()).isEqualTo(t.running());
      assertThat(e.getGenThroughputTokS()).isCloseTo(s.emitted / s.seconds(), within(0.051));
      return;
    }
    if (e.getFormat().equals("vllm.v0.stage_times")) {
      assertThat(e.getDraftMs()).isCloseTo(s.draftMs / s.passes, within(0.0051 * k));
      assertThat(e.getVerifyMs()).isCloseTo(s.verifyMs / s.passes, within(0.0051));
      assertThat(e.getOverheadMs()).isCloseTo(s.overheadMs / s.passes, within(0.0051));
      return;
    }
    assertThat(e.getFormat()).isEqualTo(d.format().formatId());
    assertThat(e.getRunningRequests()).isEqualTo(t.running());
    double tau = 1.0 + (double) s.accepted / s.cycles;
    if (d.format() == LogFormat.VLLM_V0 && e.getAcceptedTokens() == null) {
      return; // the first cumulative line of an engine has no interval counts
    }
    assertThat(e.getAcceptedTokens()).isEqualTo(s.accepted);
    assertThat(e.getDraftedTokens()).isEqualTo(s.drafted());
    assertThat(e.getCycles()).isEqualTo(s.cycles);
    assertThat(e.getAcceptLength()).isCloseTo(tau, within(0.0051));
    if (d.format() == LogFormat.VLLM_V1_SPEC_V3 || d.format() == LogFormat.VLLM_V1_SPEC_V4) {
      assertThat(e.getPerPositionAcceptance()).hasSize(k);
      for (int i = 0; i < k; i++) {
        assertThat(e.getPerPositionAcceptance().get(i))
            .isCloseTo((double) s.position[i] / s.cycles, within(0.00051));
      }
    }
  }

  private static void checkRequest(Written w, RequestAcceptance r) {
    Tick.FinishedRequest f =
        w.tick().finished().stream()
            .filter(x -> x.requestId().equals(r.getRequestId()))
            .findFirst()
            .orElseThrow();
    assertThat(r.getOutputTokens()).isEqualTo(f.outputTokens());
    assertThat(r.getVerifyCycles()).isEqualTo(f.cycles());
    assertThat(r.getAcceptedTokens()).isEqualTo(f.accepted());
    assertThat(r.getAcceptHistogram()).containsExactlyElementsOf(toList(f.histogram()));
    assertThat(r.getAcceptLength()).isEqualTo((double) f.outputTokens() / f.cycles());
    assertThat(r.getPromptCategory()).isEqualTo(f.category());
    assertThat(r.getFinishedAt()).isEqualTo(w.tick().end().truncatedTo(ChronoUnit.MILLIS));
  }

  /** A phase-profile report: means over the passes since the previous profile line. */
  private static void checkProfile(Written w, DecodeEvent e) {
    assertThat(e.getFormat()).isEqualTo("specwatch.phase_profile");
    IntervalTotals s = new IntervalTotals(0);
    w.sinceLastMetric().forEach(s::add);
    double draft = s.draftMs / s.passes;
    double verify = s.verifyMs / s.passes;
    double cycle = draft + verify + s.overheadMs / s.passes;
    assertThat(e.getDraftMs()).isCloseTo(draft, within(0.0051));
    assertThat(e.getVerifyMs()).isCloseTo(verify, within(0.0051));
    assertThat(e.getCycleMs()).isCloseTo(cycle, within(cycle * 0.003 + 0.01));
  }

  /** The startup / run-context line of the segment. */
  private static void checkContext(DeploymentSpec d, Written w, RunContext rc) {
    Segment seg = w.tick().segment();
    assertThat(w.tick().newSegment()).isTrue();
    assertThat(rc.getModel()).isEqualTo(d.model());
    assertThat(rc.getSpecMethod()).isEqualTo(d.method().wireName());
    assertThat(rc.getTp()).isEqualTo(d.tp());
    assertThat(rc.getCudaGraph()).isEqualTo(seg.context().cudaGraph());
    if (d.method().speculative()) {
      assertThat(rc.getNumDraftTokens()).isEqualTo(d.numDraftTokensSetting());
      assertThat(rc.getDraftModel()).isEqualTo(d.draftModel());
    }
    if (d.format() == LogFormat.SPECWATCH_CYCLE) {
      // the instrumented line carries everything: the shipper's id equals the published one
      assertThat(rc.getEnv()).isEqualTo(seg.context().env());
      assertThat(rc.getEngineCommit()).isEqualTo(seg.context().engineCommit());
      assertThat(rc.getContextId())
          .isEqualTo(EventRecords.runContext(d, seg, w.tick().start()).getContextId());
    }
  }

  private static List<Long> toList(long[] a) {
    List<Long> out = new ArrayList<>();
    for (long v : a) {
      out.add(v);
    }
    return out;
  }
}
