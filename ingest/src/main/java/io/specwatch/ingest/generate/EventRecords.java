package io.specwatch.ingest.generate;

import io.specwatch.ingest.context.RunContexts;
import io.specwatch.ingest.normalise.EventIds;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ticks as the Avro records {@code --publish} sends: one DecodeEvent per tick (what the shipper
 * would derive from the lines, but from the exact simulated values), one RequestAcceptance per
 * finished request of a deployment with per-request output, one RunContext per segment.
 */
public final class EventRecords {

  private EventRecords() {}

  /** Source recorded in the published records. */
  public static String source(Scenario s, DeploymentSpec d) {
    return "generate://" + s.name() + "/" + d.id();
  }

  public static DecodeEvent decodeEvent(Scenario s, DeploymentSpec d, Tick t, String contextId) {
    boolean spec = d.method().speculative();
    boolean cycleKind = d.format() == LogFormat.SPECWATCH_CYCLE;
    int k = spec ? d.draftTokens() : 0;
    long cycles = t.cycles();
    long accepted = t.accepted();
    long[] position = t.positionAccepted(k);
    List<Double> share = new ArrayList<>(k);
    List<Long> counts = new ArrayList<>(k);
    for (long c : position) {
      share.add((double) c / cycles);
      counts.add(c);
    }
    String category = t.batch().get(0).category();
    for (Tick.RequestStep r : t.batch()) {
      if (!r.category().equals(category)) {
        category = null;
        break;
      }
    }
    Map<String, String> raw = new LinkedHashMap<>();
    raw.put("generator", "specwatch generate");
    raw.put("scenario", s.name());
    raw.put("tick", Long.toString(t.index()));
    String source = source(s, d);
    DecodeEvent.Builder e =
        DecodeEvent.newBuilder()
            .setEventId(EventIds.of(d.host(), source, Long.toHexString(s.seed()), t.index(), ""))
            .setDeploymentId(d.id())
            .setHost(d.host())
            .setSource(source)
            .setSourceOffset(null)
            .setLineNumber(null)
            .setEngine(d.format().engine())
            .setFormat(formatId(d))
            .setKind(cycleKind ? EventKind.CYCLE : EventKind.INTERVAL)
            .setEventTime(t.end())
            .setIngestTime(t.end())
            .setRank("TP0")
            .setTpRank(0)
            .setPromptCategory(category)
            .setIntervalMs(t.durationMs())
            .setDecodePasses((long) t.passes())
            .setCycles(cycleKind ? 1L : cycles)
            .setRunningRequests(t.running())
            .setQueuedRequests(t.queued())
            .setTokenUsage((double) t.kvTokens() / d.kvCapacityTokens())
            .setEmittedTokens(t.emitted())
            .setGenThroughputTokS(t.emitted() * 1000.0 / t.durationMs())
            .setCycleMs(t.cycleMs())
            .setCudaGraph(t.segment().context().cudaGraph())
            .setSpecEnabled(spec)
            .setRunContextId(contextId)
            .setPerPositionAcceptance(share)
            .setPerPositionAccepted(counts)
            .setRawFields(raw);
    if (cycleKind && t.batch().size() == 1) {
      e.setRequestId(t.batch().get(0).requestId());
    }
    if (spec) {
      e.setAcceptLength(1.0 + (double) accepted / cycles)
          .setAcceptRate((double) accepted / (cycles * k))
          .setAcceptedTokens(accepted)
          .setDraftedTokens(cycles * k)
          .setDraftMs(t.draftMs())
          .setVerifyMs(t.verifyMs())
          .setOverheadMs(t.overheadMs());
    }
    return e.build();
  }

  private static String formatId(DeploymentSpec d) {
    if (d.method().speculative()) {
      return d.format().formatId();
    }
    if (d.format().isVllmV1()) {
      return "vllm.v1.engine";
    }
    return d.format() == LogFormat.VLLM_V0 ? "vllm.v0.throughput" : d.format().formatId();
  }

  public static RequestAcceptance request(
      Scenario s, DeploymentSpec d, Tick t, Tick.FinishedRequest r) {
    boolean meta = d.requestFormat() == RequestFormat.SGLANG_META_INFO;
    String source = source(s, d) + "/requests";
    return RequestAcceptance.newBuilder()
        .setEventId(EventIds.of(d.host(), source, Long.toHexString(s.seed()), 0, r.requestId()))
        .setRequestId(r.requestId())
        .setDeploymentId(d.id())
        .setHost(d.host())
        .setSource(source)
        .setEngine(meta ? Engine.SGLANG : Engine.INSTRUMENTED)
        .setFinishedAt(t.end())
        .setPromptHash(r.promptHash())
        .setPromptCategory(r.category())
        .setModel(meta ? null : d.model())
        .setDraftModelVersion(meta ? null : d.draftModelVersion())
        .setPromptTokens(r.promptTokens())
        .setOutputTokens(r.outputTokens())
        .setVerifyCycles(r.cycles())
        .setAcceptedTokens(r.accepted())
        .setDraftedTokens(meta ? null : r.drafted())
        .setAcceptLength((double) r.outputTokens() / r.cycles())
        .setRawAcceptRate(
            meta && r.drafted() > 0 ? Truth.round((double) r.accepted() / r.drafted()) : null)
        .setAcceptHistogram(toList(r.histogram()))
        .setRawFields(Map.of("generator", "specwatch generate"))
        .build();
  }

  private static List<Long> toList(long[] a) {
    List<Long> out = new ArrayList<>(a.length);
    for (long v : a) {
      out.add(v);
    }
    return out;
  }

  public static RunContext runContext(DeploymentSpec d, Segment seg, Instant observedAt) {
    RunContextSpec c = seg.context();
    boolean spec = d.method().speculative();
    RunContext.Builder b =
        RunContext.newBuilder()
            .setContextId("")
            .setDeploymentId(d.id())
            .setObservedAt(observedAt)
            .setEngine(engine(d))
            .setEngineVersion(c.engineVersion())
            .setEngineCommit(c.engineCommit())
            .setModel(d.model())
            .setDraftModel(d.draftModel())
            .setDraftModelVersion(d.draftModelVersion())
            .setSpecMethod(d.method().wireName())
            .setNumSteps(spec ? d.numSteps() : null)
            .setTopk(spec ? d.topk() : null)
            .setNumDraftTokens(spec ? d.numDraftTokensSetting() : null)
            .setGpuModel(d.hardware().gpuModel())
            .setGpuCount(d.hardware().gpuCount())
            .setInterconnect(d.hardware().interconnect())
            .setHardwareClass(d.hardware().hardwareClass())
            .setTp(d.tp())
            .setDp(1)
            .setEp(1)
            .setCudaGraph(c.cudaGraph())
            .setEnv(new TreeMap<>(c.env()))
            .setExtra(Map.of());
    return b.setContextId(contextId(b.build())).build();
  }

  private static Engine engine(DeploymentSpec d) {
    return switch (d.format().engineName()) {
      case "vllm" -> Engine.VLLM;
      case "tensorrt-llm" -> Engine.TRTLLM;
      default -> Engine.SGLANG;
    };
  }

  /** The shipper's id of a run context ({@link RunContexts#contextId}). */
  static String contextId(RunContext rc) {
    return RunContexts.contextId(rc);
  }
}
