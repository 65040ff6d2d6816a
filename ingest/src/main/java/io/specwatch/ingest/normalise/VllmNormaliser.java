package io.specwatch.ingest.normalise;

import io.specwatch.ingest.parse.vllm.VllmLine;
import io.specwatch.ingest.parse.vllm.VllmSpecDecoding;
import io.specwatch.ingest.parse.vllm.VllmStageTimes;
import io.specwatch.ingest.parse.vllm.VllmStamp;
import io.specwatch.ingest.parse.vllm.VllmThroughput;
import io.specwatch.ingest.parse.vllm.VllmV0Parser;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * vLLM lines of ONE source to DecodeEvents, in line order. Stateful:
 *
 * <ul>
 *   <li>pairing: a spec-decoding line takes running requests, queue, KV usage, generation
 *       throughput and the engine index from the oldest unpaired throughput line of the same engine
 *       generation and process that was printed within {@link #PAIR_WINDOW} of it, or (without
 *       timestamps) from the throughput line directly before it;
 *   <li>v0 counts are totals since engine start: events carry the difference to the previous line
 *       of the same process (a decrease is an engine restart: the new totals are the interval);
 *   <li>intervals between consecutive lines of the same kind and rank;
 *   <li>plain decoding: a throughput line of a deployment known to be non-speculative (its run
 *       context says spec method NONE) and of a source that printed no spec-decoding line so far
 *       gives the plain step time t_AR = 1000 * running / generation throughput as {@code cycleMs},
 *       and {@code cycles} = generated tokens of the interval (one per request and step). The line
 *       alone cannot tell: a speculative engine prints the same line, where that ratio is T_cyc /
 *       tau, not t_AR.
 * </ul>
 */
final class VllmNormaliser {

  /** How far apart a throughput line and its spec-decoding line may be printed. */
  static final Duration PAIR_WINDOW = Duration.ofSeconds(1);

  private static final int MAX_PENDING = 64;

  private final SourceContext source;
  private final NormaliseConfig config;
  private final IntervalTracker intervals = new IntervalTracker();
  private final Deque<Pending> unpaired = new ArrayDeque<>();
  private final Map<String, Totals> totals = new HashMap<>();
  private final Map<String, Integer> lastK = new HashMap<>();
  private final Predicate<String> knownNonSpeculative;
  private boolean specSeen;
  // the last stamp resolved, for the ingest time it was resolved at, and its instant: a vLLM
  // interval prints its lines (one pair per engine) with the same stamp, and resolving one builds
  // two ZonedDateTimes (~4 % of the shipper's sending thread before this)
  private VllmStamp lastStamp;
  private Instant lastIngestTime;
  private Instant lastPrinted;

  private record Pending(VllmThroughput line, Instant time, long lineNumber) {}

  private record Totals(long accepted, long drafted, Long emitted) {}

  VllmNormaliser(
      SourceContext source, NormaliseConfig config, Predicate<String> knownNonSpeculative) {
    this.source = Objects.requireNonNull(source, "source");
    this.config = Objects.requireNonNull(config, "config");
    this.knownNonSpeculative = Objects.requireNonNull(knownNonSpeculative, "knownNonSpeculative");
  }

  DecodeEvent normalise(VllmLine line, LineOrigin origin) {
    Instant printed = printed(line.stamp(), origin.ingestTime());
    if (line instanceof VllmThroughput t) {
      return throughput(t, origin, printed);
    }
    if (line instanceof VllmSpecDecoding s) {
      return spec(s, origin, printed);
    }
    if (line instanceof VllmStageTimes st) {
      return stageTimes(st, origin, printed);
    }
    throw new IllegalArgumentException("no vLLM normaliser for format " + line.format());
  }

  private Instant printed(VllmStamp stamp, Instant ingestTime) {
    if (stamp == null) {
      return null;
    }
    if (!stamp.equals(lastStamp) || !ingestTime.equals(lastIngestTime)) {
      lastPrinted = stamp.resolve(config.logYear(), ingestTime, config.logZone());
      lastStamp = stamp;
      lastIngestTime = ingestTime;
    }
    return lastPrinted;
  }

  private EventBuilder base(VllmLine line, LineOrigin origin, Instant printed) {
    return DecodeEventNormaliser.base(source, config, line, origin, printed)
        .setEngine(Engine.VLLM)
        .setKind(EventKind.INTERVAL);
  }

  private static String process(VllmLine line) {
    return line.processTag() == null ? "" : line.processTag();
  }

  private static boolean v0(VllmLine line) {
    return line.format().startsWith(VllmV0Parser.FAMILY + ".");
  }

  /** A throughput line: no speculative fields of its own (specEnabled=false); kept for pairing. */
  private DecodeEvent throughput(VllmThroughput t, LineOrigin origin, Instant printed) {
    unpaired.addLast(new Pending(t, printed, origin.lineNumber()));
    while (unpaired.size() > MAX_PENDING) {
      unpaired.removeFirst();
    }
    String rank = t.prefix().rankKey();
    Double intervalMs = intervals.next("throughput|" + process(t) + "|" + rank, printed);
    EventBuilder e =
        base(t, origin, printed)
            .setIntervalMs(intervalMs)
            .setRunningRequests(t.running())
            .setQueuedRequests(t.queued())
            .setTokenUsage(t.gpuKvCachePercent() == null ? null : t.gpuKvCachePercent() / 100.0)
            .setGenThroughputTokS(t.genThroughput())
            .setSpecEnabled(false);
    if (!specSeen && knownNonSpeculative.test(source.deploymentId())) {
      plainStep(e, t, intervalMs);
    }
    return e.build();
  }

  /**
   * Plain decoding: every running request gets one token per step, so the step time is t_AR ms =
   * 1000 * running / generation throughput and the interval's steps x requests = its generated
   * tokens = throughput x interval. Nothing is set for an idle interval (no requests or tokens).
   */
  static void plainStep(EventBuilder e, VllmThroughput t, Double intervalMs) {
    int running = t.running();
    double throughput = t.genThroughput();
    if (running <= 0 || !(throughput > 0) || Double.isInfinite(throughput)) {
      return;
    }
    e.setCycleMs(1000.0 * running / throughput);
    if (intervalMs != null && intervalMs > 0) {
      long cycles = Math.round(throughput * intervalMs / 1000.0);
      e.setCycles(cycles).setEmittedTokens(cycles);
    }
  }

  private Pending pair(VllmLine spec, Instant time, long lineNumber) {
    Iterator<Pending> it = unpaired.iterator();
    while (it.hasNext()) {
      Pending p = it.next();
      boolean sameKind = v0(p.line()) == v0(spec) && process(p.line()).equals(process(spec));
      boolean timed = p.time() != null && time != null;
      if (timed && p.time().isBefore(time.minus(PAIR_WINDOW))) {
        it.remove();
        continue;
      }
      boolean near =
          timed
              ? !p.time().isAfter(time.plus(PAIR_WINDOW))
              : p.time() == null && time == null && p.lineNumber() == lineNumber - 1;
      if (sameKind && near) {
        it.remove();
        return p;
      }
    }
    return null;
  }

  private DecodeEvent spec(VllmSpecDecoding s, LineOrigin origin, Instant printed) {
    specSeen = true;
    Pending paired = pair(s, printed, origin.lineNumber());
    String rank =
        paired == null || paired.line().engineIndex() == null
            ? ""
            : VllmThroughput.engineRank(paired.line().engineIndex());
    String key = process(s) + "|" + rank;
    Long accepted = s.acceptedTokens();
    Long drafted = s.draftedTokens();
    Long emitted = s.emittedTokens();
    if (s.cumulative()) {
      Totals now = new Totals(s.acceptedTokens(), s.draftedTokens(), s.emittedTokens());
      Totals before = totals.put(key, now);
      if (before == null) {
        accepted = null;
        drafted = null;
        emitted = null;
      } else if (now.accepted() >= before.accepted()
          && now.drafted() >= before.drafted()
          && (now.emitted() == null
              || before.emitted() == null
              || now.emitted() >= before.emitted())) {
        accepted = now.accepted() - before.accepted();
        drafted = now.drafted() - before.drafted();
        emitted =
            now.emitted() == null || before.emitted() == null
                ? null
                : now.emitted() - before.emitted();
      }
    }
    Integer k = s.numSpeculativeTokens();
    if (k == null && !s.perPositionAcceptance().isEmpty()) {
      k = s.perPositionAcceptance().size();
    }
    if (k == null) {
      k = config.speculativeNumSteps();
    }
    if (k != null && k > 0) {
      lastK.put(process(s), k);
    }
    Double tau = s.meanAcceptanceLength();
    Long drafts = drafts(accepted, drafted, k, tau);
    if (tau == null && drafts != null && drafts > 0) {
      tau = emitted != null ? (double) emitted / drafts : 1.0 + (double) accepted / drafts;
    }
    if (emitted == null && accepted != null && drafts != null) {
      emitted = accepted + drafts;
    }
    Double intervalMs = intervals.next("spec|" + key, printed);
    Double measured = measuredIntervalMs(s);
    if (measured != null) {
      intervalMs = measured;
    }
    Integer running = paired == null ? null : paired.line().running();
    Double cycleMs = null;
    if (intervalMs != null && running != null && running > 0 && drafts != null && drafts > 0) {
      cycleMs = intervalMs * running / drafts;
    }
    Double throughput = paired == null ? null : paired.line().genThroughput();
    if (throughput == null && s.acceptedThroughput() != null && tau != null && tau > 1.0) {
      throughput = s.acceptedThroughput() * tau / (tau - 1.0);
    }
    EventBuilder e =
        base(s, origin, printed)
            .setIntervalMs(intervalMs)
            .setCycles(drafts)
            .setRunningRequests(running)
            .setAcceptLength(tau)
            .setAcceptedTokens(accepted)
            .setDraftedTokens(drafted)
            .setEmittedTokens(emitted)
            .setAcceptRate(
                accepted != null && drafted != null && drafted > 0
                    ? (double) accepted / drafted
                    : null)
            .setPerPositionAcceptance(s.perPositionAcceptance())
            .setGenThroughputTokS(throughput)
            .setCycleMs(cycleMs)
            .setSpecEnabled(true);
    if (paired != null) {
      VllmThroughput t = paired.line();
      e.setQueuedRequests(t.queued())
          .setTokenUsage(t.gpuKvCachePercent() == null ? null : t.gpuKvCachePercent() / 100.0);
      if (t.engineIndex() != null) {
        e.setRank(rank).setDpRank(t.engineIndex());
      }
    }
    if (s.acceptRate() != null) {
      e.setRawAcceptRate(s.acceptRate()).setRawAcceptRateDefinition(rateDefinition(s));
    }
    return e.build();
  }

  /**
   * Draft-verify cycles: drafted / k when k is known (exact), else accepted / (tau - 1) (tau is
   * printed with two decimals), 0 for an idle interval, null otherwise.
   */
  static Long drafts(Long accepted, Long drafted, Integer k, Double tau) {
    if (accepted == null || drafted == null) {
      return null;
    }
    if (k != null && k > 0) {
      return Math.round((double) drafted / k);
    }
    if (tau != null && tau > 1.0 && accepted > 0) {
      return Math.round(accepted / (tau - 1.0));
    }
    return accepted == 0 && drafted == 0 ? 0L : null;
  }

  /** V1 v4 prints throughputs over the exact logging interval: tokens / (tokens/s). */
  private static Double measuredIntervalMs(VllmSpecDecoding s) {
    if (s.acceptedThroughput() != null && s.acceptedThroughput() > 0 && s.acceptedTokens() > 0) {
      return 1000.0 * s.acceptedTokens() / s.acceptedThroughput();
    }
    if (s.draftedThroughput() != null && s.draftedThroughput() > 0 && s.draftedTokens() > 0) {
      return 1000.0 * s.draftedTokens() / s.draftedThroughput();
    }
    return null;
  }

  private static String rateDefinition(VllmSpecDecoding s) {
    if (s.cumulative()) {
      return "cumulative_accepted_over_drafted";
    }
    return s.ratePercent() ? "percent_accepted_over_drafted" : "accepted_over_drafted";
  }

  private DecodeEvent stageTimes(VllmStageTimes st, LineOrigin origin, Instant printed) {
    specSeen = true;
    Integer k = lastK.getOrDefault(process(st), config.speculativeNumSteps());
    Double draftMs = k == null ? null : st.proposalMsPerToken() * k;
    return base(st, origin, printed)
        .setIntervalMs(intervals.next("stage|" + process(st), printed))
        .setDraftMs(draftMs)
        .setVerifyMs(st.scoringMs())
        .setOverheadMs(st.verificationMs())
        .setCycleMs(draftMs == null ? null : draftMs + st.scoringMs() + st.verificationMs())
        .setPerPositionAcceptance(List.of())
        .setSpecEnabled(true)
        .build();
  }
}
