package io.specwatch.ingest.normalise;

import io.specwatch.ingest.parse.trtllm.TrtllmIterationStats;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;

/**
 * TensorRT-LLM iteration stats to DecodeEvents. One iteration is one draft-verify cycle of every
 * request that had drafts: an INTERVAL event with {@code decodePasses = 1}, {@code cycles =
 * numRequestsWithDraftTokens} and {@code cycleMs = iterLatencyMS}. Stateless.
 */
final class TrtllmEvents {

  private TrtllmEvents() {}

  static DecodeEvent of(
      SourceContext source, NormaliseConfig config, TrtllmIterationStats s, LineOrigin origin) {
    Instant printed =
        s.timestamp() == null ? null : s.timestamp().atZone(config.logZone()).toInstant();
    EventBuilder e =
        DecodeEventNormaliser.base(source, config, s, origin, printed)
            .setEngine(Engine.TRTLLM)
            .setKind(EventKind.INTERVAL)
            .setIntervalMs(s.iterLatencyMs())
            .setDecodePasses(1L)
            .setRunningRequests(s.activeRequests())
            .setQueuedRequests(s.queuedRequests())
            .setCycleMs(s.iterLatencyMs() > 0 ? s.iterLatencyMs() : null)
            .setSpecEnabled(s.speculative());
    if (!s.speculative()) {
      return e.setCycles(s.activeRequests() == null ? null : (long) s.activeRequests()).build();
    }
    long drafted = s.numDraftTokens();
    long accepted = s.numAcceptedTokens();
    Long withDrafts = s.numRequestsWithDraftTokens();
    Double tau = s.acceptanceLength();
    if ((tau == null || tau < 1.0) && withDrafts != null && withDrafts > 0) {
      tau = 1.0 + (double) accepted / withDrafts;
    }
    if (withDrafts == null || withDrafts == 0) {
      tau = null;
    }
    Double rate = drafted > 0 ? (double) accepted / drafted : null;
    e.setCycles(withDrafts)
        .setAcceptLength(tau)
        .setAcceptedTokens(accepted)
        .setDraftedTokens(drafted)
        .setEmittedTokens(withDrafts == null ? null : accepted + withDrafts)
        .setAcceptRate(rate)
        .setDraftMs(s.draftLatencyMs());
    return e.build();
  }
}
