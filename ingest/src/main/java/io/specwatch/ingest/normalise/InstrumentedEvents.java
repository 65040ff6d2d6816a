package io.specwatch.ingest.normalise;

import io.specwatch.ingest.parse.instrumented.CycleLine;
import io.specwatch.ingest.parse.instrumented.PhaseProfileLine;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The instrumented formats to DecodeEvents (engine {@code INSTRUMENTED}). Stateless.
 *
 * <ul>
 *   <li>{@code specwatch.cycle}: one CYCLE event per line, {@code cycles = 1}, {@code
 *       runningRequests = batch_size}, tau = 1 + mean(accepted);
 *   <li>{@code specwatch.phase_profile}: one INTERVAL event per report with draft/verify/cycle ms
 *       only ({@code cycles} unknown: null); report k > 0 of a line gets the event id of the line
 *       text plus {@code #k}.
 * </ul>
 */
final class InstrumentedEvents {

  private InstrumentedEvents() {}

  static DecodeEvent cycle(
      SourceContext source, NormaliseConfig config, CycleLine c, LineOrigin origin) {
    EventBuilder e =
        DecodeEventNormaliser.base(source, config, c, origin, c.ts())
            .setEngine(Engine.INSTRUMENTED)
            .setKind(EventKind.CYCLE)
            .setIntervalMs(c.cycleMs())
            .setDecodePasses(1L)
            .setCycles(1L)
            .setRunningRequests(c.batchSize())
            .setPromptCategory(c.promptCategory())
            .setRequestId(
                c.batchSize() == 1 && c.requestIds().size() == 1 ? c.requestIds().get(0) : null)
            .setAcceptLength(c.acceptLength())
            .setAcceptedTokens(c.acceptedTokens())
            .setDraftedTokens(c.draftedTokens())
            .setEmittedTokens(c.acceptedTokens() + c.batchSize())
            .setAcceptRate(
                c.draftedTokens() > 0 ? (double) c.acceptedTokens() / c.draftedTokens() : null)
            .setCycleMs(c.cycleMs())
            .setSpecEnabled(c.numDraftTokens() > 0);
    if (c.deployment() != null) {
      e.setDeploymentId(c.deployment());
    }
    List<Long> counts = c.perPositionAccepted();
    List<Double> shares = new ArrayList<>();
    for (long n : counts) {
      shares.add((double) n / c.batchSize());
    }
    e.setPerPositionAccepted(counts).setPerPositionAcceptance(shares);
    Double draft = c.draftMs();
    Double verify = c.verifyMs();
    Double overhead = c.overheadMs();
    if (!c.phases().isEmpty()) {
      Double pDraft = null;
      Double pVerify = null;
      Double pOther = null;
      for (Map.Entry<String, Double> p : c.phases().entrySet()) {
        String name = p.getKey().toLowerCase(Locale.ROOT);
        if (name.contains("verify")) {
          pVerify = (pVerify == null ? 0 : pVerify) + p.getValue();
        } else if (name.contains("draft")) {
          pDraft = (pDraft == null ? 0 : pDraft) + p.getValue();
        } else {
          pOther = (pOther == null ? 0 : pOther) + p.getValue();
        }
      }
      draft = draft != null ? draft : pDraft;
      verify = verify != null ? verify : pVerify;
      overhead = overhead != null ? overhead : pOther;
    }
    return e.setDraftMs(draft).setVerifyMs(verify).setOverheadMs(overhead).build();
  }

  static List<DecodeEvent> phaseProfile(
      SourceContext source, NormaliseConfig config, PhaseProfileLine p, LineOrigin origin) {
    Instant printed =
        p.prefix().timestamp() == null
            ? null
            : p.prefix().timestamp().atZone(config.logZone()).toInstant();
    List<DecodeEvent> out = new ArrayList<>();
    for (int k = 0; k < p.reports().size(); k++) {
      PhaseProfileLine.Report r = p.reports().get(k);
      EventBuilder e =
          DecodeEventNormaliser.base(source, config, p, origin, printed)
              .setEngine(Engine.INSTRUMENTED)
              .setKind(EventKind.INTERVAL)
              .setDraftMs(r.draftMs())
              .setVerifyMs(r.verifyMs())
              .setCycleMs(r.cycleMs())
              .setSpecEnabled(true);
      if (k > 0) {
        e.setEventId(
            EventIds.of(
                source.host(),
                source.source(),
                source.sourceIdentity(),
                origin.offset(),
                origin.text() + "#" + k));
      }
      out.add(e.build());
    }
    return out;
  }
}
