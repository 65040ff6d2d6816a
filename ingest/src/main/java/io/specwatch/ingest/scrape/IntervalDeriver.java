package io.specwatch.ingest.scrape;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Turns consecutive scrapes of one or more /metrics endpoints into INTERVAL DecodeEvents, one per
 * URL and series group per scrape. A series group is the label set of a series without {@code
 * position} (vLLM: {@code engine} and {@code model_name}; SGLang: whatever labels its gauges
 * carry).
 *
 * <p>The first scrape of a group only primes the counters. A counter lower than in the previous
 * scrape means the engine restarted: the interval's delta is then the new value (the counter
 * started again from zero somewhere inside the interval), so nothing counted after the restart is
 * lost; what was counted between the previous scrape and the restart is lost, which no scraper can
 * recover. Not thread-safe: one scrape loop owns it.
 */
public final class IntervalDeriver {

  public static final String VLLM_FORMAT = "prometheus.vllm";
  public static final String SGLANG_FORMAT = "prometheus.sglang";

  static final String V_DRAFTS = "vllm:spec_decode_num_drafts_total";
  static final String V_DRAFT_TOKENS = "vllm:spec_decode_num_draft_tokens_total";
  static final String V_ACCEPTED = "vllm:spec_decode_num_accepted_tokens_total";
  static final String V_PER_POS = "vllm:spec_decode_num_accepted_tokens_per_pos_total";
  static final String V_RUNNING = "vllm:num_requests_running";
  static final String S_ACCEPT_LENGTH = "sglang:spec_accept_length";
  static final String S_ACCEPT_RATE = "sglang:spec_accept_rate";
  static final String S_VERIFY_CALLS = "sglang:spec_verify_calls_total";
  static final String S_GEN_THROUGHPUT = "sglang:gen_throughput";
  static final String S_RUNNING = "sglang:num_running_reqs";

  private record VllmState(
      long timeMs, double drafts, double draftTokens, double accepted, Map<Integer, Double> pos) {}

  private record SglangState(long timeMs, Double verifyCalls) {}

  private final String deploymentId;
  private final String host;
  private final ScrapeEngine engine;
  private final Map<String, VllmState> vllm = new HashMap<>();
  private final Map<String, SglangState> sglang = new HashMap<>();

  public IntervalDeriver(String deploymentId, String host, ScrapeEngine engine) {
    this.deploymentId = Objects.requireNonNull(deploymentId, "deploymentId");
    this.host = Objects.requireNonNull(host, "host");
    this.engine = Objects.requireNonNull(engine, "engine");
  }

  /** Events for one scrape of {@code url} taken at {@code scrapeTime}, in group order. */
  public List<DecodeEvent> onScrape(String url, Instant scrapeTime, List<PromSample> samples) {
    List<DecodeEvent> out = new ArrayList<>();
    if (engine.includesVllm(samples)) {
      out.addAll(vllm(url, scrapeTime, samples));
    }
    if (engine.includesSglang(samples)) {
      out.addAll(sglang(url, scrapeTime, samples));
    }
    return out;
  }

  static String groupOf(PromSample s) {
    return s.labels().entrySet().stream()
        .filter(e -> !e.getKey().equals("position"))
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(","));
  }

  private static Map<String, List<PromSample>> byGroup(List<PromSample> samples, String prefix) {
    Map<String, List<PromSample>> groups = new TreeMap<>();
    for (PromSample s : samples) {
      if (s.name().startsWith(prefix)) {
        groups.computeIfAbsent(groupOf(s), k -> new ArrayList<>()).add(s);
      }
    }
    return groups;
  }

  private static Double value(List<PromSample> group, String name) {
    for (PromSample s : group) {
      if (s.name().equals(name) && Double.isFinite(s.value())) {
        return s.value();
      }
    }
    return null;
  }

  private static Map<String, String> raw(List<PromSample> group, String... names) {
    Map<String, String> raw = new LinkedHashMap<>();
    List<String> wanted = List.of(names);
    for (PromSample s : group) {
      if (wanted.contains(s.name())) {
        String pos = s.label("position");
        raw.put(pos == null ? s.name() : s.name() + "{position=" + pos + "}", s.valueText());
      }
    }
    return raw;
  }

  private List<DecodeEvent> vllm(String url, Instant at, List<PromSample> samples) {
    List<DecodeEvent> out = new ArrayList<>();
    long now = at.toEpochMilli();
    for (Map.Entry<String, List<PromSample>> g : byGroup(samples, "vllm:").entrySet()) {
      List<PromSample> group = g.getValue();
      Double drafts = value(group, V_DRAFTS);
      Double draftTokens = value(group, V_DRAFT_TOKENS);
      Double accepted = value(group, V_ACCEPTED);
      if (drafts == null || draftTokens == null || accepted == null) {
        continue; // not a spec-decoding series group (or speculation is off)
      }
      Map<Integer, Double> pos = new TreeMap<>();
      for (PromSample s : group) {
        if (s.name().equals(V_PER_POS) && s.label("position") != null) {
          pos.put(Integer.parseInt(s.label("position")), s.value());
        }
      }
      String key = url + "\u0000" + g.getKey();
      VllmState prev = vllm.put(key, new VllmState(now, drafts, draftTokens, accepted, pos));
      if (prev == null || now <= prev.timeMs()) {
        continue;
      }
      boolean reset =
          drafts < prev.drafts()
              || draftTokens < prev.draftTokens()
              || accepted < prev.accepted()
              || pos.entrySet().stream()
                  .anyMatch(e -> e.getValue() < prev.pos().getOrDefault(e.getKey(), 0.0));
      long dDrafts = Math.round(reset ? drafts : drafts - prev.drafts());
      long dDrafted = Math.round(reset ? draftTokens : draftTokens - prev.draftTokens());
      long dAccepted = Math.round(reset ? accepted : accepted - prev.accepted());
      int positions = pos.isEmpty() ? 0 : ((TreeMap<Integer, Double>) pos).lastKey() + 1;
      List<Long> perPosAccepted = new ArrayList<>();
      List<Double> perPosAcceptance = new ArrayList<>();
      for (int i = 0; i < positions; i++) {
        double cur = pos.getOrDefault(i, 0.0);
        long d = Math.round(reset ? cur : cur - prev.pos().getOrDefault(i, 0.0));
        perPosAccepted.add(d);
        if (dDrafts > 0) {
          perPosAcceptance.add((double) d / dDrafts);
        }
      }
      Double running = value(group, V_RUNNING);
      Map<String, String> raw = raw(group, V_DRAFTS, V_DRAFT_TOKENS, V_ACCEPTED, V_PER_POS);
      raw.put("series", g.getKey());
      if (reset) {
        raw.put("counter_reset", "true");
      }
      DecodeEvent e =
          base(url, g.getKey(), at, Engine.VLLM, VLLM_FORMAT, now - prev.timeMs(), raw)
              .setCycles(dDrafts)
              .setDraftedTokens(dDrafted)
              .setAcceptedTokens(dAccepted)
              .setEmittedTokens(dAccepted + dDrafts)
              .setAcceptLength(dDrafts > 0 ? 1.0 + (double) dAccepted / dDrafts : null)
              .setAcceptRate(dDrafted > 0 ? (double) dAccepted / dDrafted : null)
              .setPerPositionAccepted(perPosAccepted)
              .setPerPositionAcceptance(perPosAcceptance)
              .setRunningRequests(running == null ? null : (int) Math.round(running))
              .build();
      out.add(e);
    }
    return out;
  }

  private List<DecodeEvent> sglang(String url, Instant at, List<PromSample> samples) {
    List<DecodeEvent> out = new ArrayList<>();
    long now = at.toEpochMilli();
    for (Map.Entry<String, List<PromSample>> g : byGroup(samples, "sglang:").entrySet()) {
      List<PromSample> group = g.getValue();
      Double acceptLength = value(group, S_ACCEPT_LENGTH);
      if (acceptLength == null) {
        continue;
      }
      Double verify = value(group, S_VERIFY_CALLS);
      String key = url + "\u0000" + g.getKey();
      SglangState prev = sglang.put(key, new SglangState(now, verify));
      if (prev == null || now <= prev.timeMs()) {
        continue;
      }
      Long passes = null;
      boolean reset = false;
      if (verify != null && prev.verifyCalls() != null) {
        reset = verify < prev.verifyCalls();
        passes = Math.round(reset ? verify : verify - prev.verifyCalls());
      }
      Double acceptRate = value(group, S_ACCEPT_RATE);
      Double running = value(group, S_RUNNING);
      Map<String, String> raw =
          raw(group, S_ACCEPT_LENGTH, S_ACCEPT_RATE, S_VERIFY_CALLS, S_GEN_THROUGHPUT, S_RUNNING);
      raw.put("series", g.getKey());
      if (reset) {
        raw.put("counter_reset", "true");
      }
      DecodeEvent.Builder b =
          base(url, g.getKey(), at, Engine.SGLANG, SGLANG_FORMAT, now - prev.timeMs(), raw)
              .setAcceptLength(acceptLength)
              .setDecodePasses(passes)
              .setGenThroughputTokS(value(group, S_GEN_THROUGHPUT))
              .setRunningRequests(running == null ? null : (int) Math.round(running));
      if (acceptRate != null) {
        b.setAcceptRate(acceptRate)
            .setRawAcceptRate(acceptRate)
            .setRawAcceptRateDefinition("accepted_over_drafted");
      }
      out.add(b.build());
    }
    return out;
  }

  private DecodeEvent.Builder base(
      String url,
      String group,
      Instant at,
      Engine eng,
      String format,
      long intervalMs,
      Map<String, String> raw) {
    return DecodeEvent.newBuilder()
        .setEventId(ScrapeEventIds.of(url, group, at.toEpochMilli()))
        .setDeploymentId(deploymentId)
        .setHost(host)
        .setSource(url)
        .setEngine(eng)
        .setFormat(format)
        .setKind(EventKind.INTERVAL)
        .setEventTime(at)
        .setIngestTime(at)
        .setIntervalMs((double) intervalMs)
        .setRawFields(new HashMap<>(raw));
  }
}
