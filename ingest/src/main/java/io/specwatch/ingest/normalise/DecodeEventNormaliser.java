package io.specwatch.ingest.normalise;

import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.instrumented.CycleLine;
import io.specwatch.ingest.parse.instrumented.PhaseProfileLine;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatch;
import io.specwatch.ingest.parse.trtllm.TrtllmIterationStats;
import io.specwatch.ingest.parse.vllm.VllmLine;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Turns parsed metric lines of ONE source into DecodeEvents. Stateful: intervals are measured
 * between consecutive lines of the same rank, so use one instance per source, in line order.
 */
public final class DecodeEventNormaliser {

  private final SourceContext source;
  private final NormaliseConfig config;
  private final IntervalTracker intervals = new IntervalTracker();
  private final VllmNormaliser vllm;
  // the last SGLang time resolved and its instant: the lines of one interval (one per rank, and
  // consecutive intervals within a second) print the same time
  private LocalDateTime lastTimestamp;
  private Instant lastPrinted;

  /** A normaliser that treats no deployment as known non-speculative. */
  public DecodeEventNormaliser(SourceContext source, NormaliseConfig config) {
    this(source, config, deployment -> false);
  }

  /**
   * @param knownNonSpeculative whether a deployment is known to decode without speculation (its run
   *     context says spec method NONE): only then do vLLM throughput lines, which look the same
   *     with and without speculation, give a plain-decoding step time (see {@link VllmNormaliser})
   */
  public DecodeEventNormaliser(
      SourceContext source, NormaliseConfig config, Predicate<String> knownNonSpeculative) {
    this.source = Objects.requireNonNull(source, "source");
    this.config = Objects.requireNonNull(config, "config");
    this.vllm = new VllmNormaliser(source, config, knownNonSpeculative);
  }

  /**
   * The events of one line: one for every format except {@code specwatch.phase_profile}, which
   * gives one per report.
   */
  public List<DecodeEvent> normaliseAll(MetricLine line, LineOrigin origin) {
    if (line instanceof PhaseProfileLine p) {
      return InstrumentedEvents.phaseProfile(source, config, p, origin);
    }
    return List.of(normalise(line, origin));
  }

  public DecodeEvent normalise(MetricLine line, LineOrigin origin) {
    if (line instanceof CycleLine cycle) {
      return InstrumentedEvents.cycle(source, config, cycle, origin);
    }
    if (line instanceof PhaseProfileLine p) {
      return InstrumentedEvents.phaseProfile(source, config, p, origin).get(0);
    }
    if (line instanceof SglangDecodeBatch batch) {
      return sglang(batch, origin);
    }
    if (line instanceof VllmLine v) {
      return vllm.normalise(v, origin);
    }
    if (line instanceof TrtllmIterationStats stats) {
      return TrtllmEvents.of(source, config, stats, origin);
    }
    throw new IllegalArgumentException("no normaliser for format " + line.format());
  }

  private Instant printed(LocalDateTime timestamp) {
    if (timestamp == null) {
      return null;
    }
    if (!timestamp.equals(lastTimestamp)) {
      lastPrinted = timestamp.atZone(config.logZone()).toInstant();
      lastTimestamp = timestamp;
    }
    return lastPrinted;
  }

  private DecodeEvent sglang(SglangDecodeBatch b, LineOrigin origin) {
    Instant printed = printed(b.prefix().timestamp());
    Double intervalMs = sglangIntervalMs(b.prefix().rankKey(), printed);
    Double cycleMs = sglangCycleMs(b.prefix().rankKey(), printed);
    long passes = config.decodeLogInterval();
    long cycles = sglangCycles(config, b);
    Double tau = b.acceptLength();
    EventBuilder e = base(b, origin, printed);
    e.setEngine(Engine.SGLANG)
        .setKind(EventKind.INTERVAL)
        .setIntervalMs(intervalMs)
        .setDecodePasses(passes)
        .setCycles(cycles)
        .setRunningRequests(b.runningRequests())
        .setQueuedRequests(b.queuedRequests())
        .setTokenUsage(b.tokenUsage())
        .setAcceptLength(tau)
        .setAcceptedTokens(tau != null ? sglangAcceptedTokens(tau, cycles) : null)
        .setEmittedTokens(sglangEmittedTokens(tau, cycles))
        .setGenThroughputTokS(b.genThroughput())
        .setCycleMs(cycleMs)
        .setCudaGraph(b.graph())
        .setSpecEnabled(tau != null);
    if (b.acceptRate() != null) {
      e.setRawAcceptRate(b.acceptRate())
          .setRawAcceptRateDefinition(config.acceptRateDefinition().id())
          .setAcceptRate(normalisedAcceptRate(config, b.acceptRate(), tau));
    }
    return e.build();
  }

  /**
   * The {@code intervalMs} of an SGLang line of {@code rankKey} printed at {@code printed}: what
   * {@link #normalise} gives it. Advances this source's per-rank state like {@link #normalise}, so
   * call it (with {@link #sglangCycleMs}) once per line, in file order, for the lines {@link
   * #normalise} does not see (the shipper's pre-encoded SGLang path).
   */
  public Double sglangIntervalMs(String rankKey, Instant printed) {
    return intervals.next(rankKey, printed);
  }

  /** The {@code cycleMs} of an SGLang line; see {@link #sglangIntervalMs}. */
  public Double sglangCycleMs(String rankKey, Instant printed) {
    return intervals.cycleMs(rankKey, printed, config.decodeLogInterval());
  }

  /** Cycles of an SGLang line: decode passes per line x running requests. */
  public static long sglangCycles(NormaliseConfig config, SglangDecodeBatch b) {
    return (long) config.decodeLogInterval() * b.runningRequests();
  }

  /** Accepted draft tokens of an SGLang interval with accept length {@code tau}. */
  public static long sglangAcceptedTokens(double tau, long cycles) {
    return Math.round((tau - 1.0) * cycles);
  }

  /** Emitted tokens of an SGLang interval: tau x cycles, or the cycles without speculation. */
  public static long sglangEmittedTokens(Double tau, long cycles) {
    return tau != null ? Math.round(tau * cycles) : cycles;
  }

  /** The printed acceptance rate in the normalised definition (accepted / drafted), or null. */
  public static Double normalisedAcceptRate(NormaliseConfig config, double raw, Double tau) {
    return switch (config.acceptRateDefinition()) {
      case ACCEPTED_OVER_DRAFTED -> raw;
      case TOKENS_INCL_BONUS_OVER_CYCLES_X_STEPS_PLUS_1 -> {
        Integer steps = config.speculativeNumSteps();
        if (steps == null || tau == null) {
          yield null;
        }
        // raw = tau / (steps + 1), accepted drafts per cycle = tau - 1 over steps drafted
        yield Math.max(0.0, Math.min(1.0, (raw * (steps + 1) - 1.0) / steps));
      }
    };
  }

  private EventBuilder base(MetricLine line, LineOrigin origin, Instant printed) {
    return base(source, config, line, origin, printed);
  }

  /** Identity, origin and prefix fields every event carries. */
  static EventBuilder base(
      SourceContext source,
      NormaliseConfig config,
      MetricLine line,
      LineOrigin origin,
      Instant printed) {
    return new EventBuilder()
        .setEventId(origin.eventId(source))
        .setDeploymentId(source.deploymentId())
        .setHost(source.host())
        .setSource(source.source())
        .setSourceOffset(origin.offset())
        .setLineNumber(origin.lineNumber())
        .setFormat(line.format())
        .setEventTime(printed != null ? printed : origin.ingestTime())
        .setIngestTime(origin.ingestTime())
        .setRank(line.prefix().rank())
        .setTpRank(line.prefix().tpRank())
        .setDpRank(line.prefix().dpRank())
        .setEpRank(line.prefix().epRank())
        .setPerPositionAcceptance(List.of())
        .setPerPositionAccepted(List.of())
        .setRawFields(config.rawFields().of(line));
  }
}
