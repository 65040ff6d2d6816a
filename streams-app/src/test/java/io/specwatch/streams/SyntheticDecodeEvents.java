package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Deterministic, realistic SGLang {@code Decode batch} interval events (what the shipper publishes
 * for an EAGLE-3 deployment: TP0 lines every 40 decode passes) for the scale-out IT and the streams
 * benchmark. Same seed, same events: two runs over the output of one generator see the same input.
 */
final class SyntheticDecodeEvents {
  private static final HexFormat HEX = HexFormat.of();
  private static final int DECODE_LOG_INTERVAL = 40;

  private final Random random;
  private long sequence;

  SyntheticDecodeEvents(long seed) {
    this.random = new Random(seed);
  }

  /** Deployment id number {@code i}, e.g. {@code kimi-eagle3-00042}. */
  static String deployment(int i) {
    return String.format("kimi-eagle3-%05d", i);
  }

  /**
   * One interval event of {@code deployment} at {@code at}: tau around 2, ~30 ms cycles, 1-32
   * running requests (so cycles = 40 x running), per-position acceptance for 3 draft tokens.
   */
  DecodeEvent next(String deployment, Instant at) {
    long seq = sequence++;
    int running = 1 + random.nextInt(32);
    long cycles = (long) DECODE_LOG_INTERVAL * running;
    double tau = round(1.6 + random.nextDouble() * 0.9, 2);
    double draftMs = round(1.5 + random.nextDouble(), 2);
    double verifyMs = round(19 + random.nextDouble() * 10, 2);
    double overheadMs = round(3 + random.nextDouble() * 2, 2);
    double cycleMs = round(draftMs + verifyMs + overheadMs, 2);
    long drafted = 3 * cycles;
    long accepted = Math.round((tau - 1) * cycles);
    double p0 = round(Math.min(1, (tau - 1) * 0.6), 3);
    double p1 = round(p0 * 0.55, 3);
    double p2 = round(p1 * 0.45, 3);
    double genTokS = round(1000 * tau / cycleMs * running, 1);
    return interval(deployment, at, seq * 212, seq + 1, running, cycles)
        .setAcceptLength(tau)
        .setAcceptRate(round(accepted / (double) drafted, 4))
        .setRawAcceptRate(round(tau / 4, 2))
        .setRawAcceptRateDefinition("sglang.tokens_per_slot")
        .setAcceptedTokens(accepted)
        .setDraftedTokens(drafted)
        .setPerPositionAcceptance(List.of(p0, p1, p2))
        .setGenThroughputTokS(genTokS)
        .setDraftMs(draftMs)
        .setVerifyMs(verifyMs)
        .setOverheadMs(overheadMs)
        .setCycleMs(cycleMs)
        .setCudaGraph(true)
        .setSpecEnabled(true)
        .setRawFields(Map.of("accept len", Double.toString(tau), "cuda graph", "True"))
        .build();
  }

  /**
   * One interval event of a non-speculative deployment (plain decoding, as SGLang logs it without
   * {@code accept len}) at {@code at}: 1-32 running requests, a 17-23 ms decode step, cycles = 40 x
   * running (one token per request and pass), no draft, verify or acceptance fields. Uses the same
   * random sequence as {@link #next}, so a mix of both stays deterministic for a seed.
   */
  DecodeEvent plain(String deployment, Instant at) {
    long seq = sequence++;
    int running = 1 + random.nextInt(32);
    long cycles = (long) DECODE_LOG_INTERVAL * running;
    double stepMs = round(17 + random.nextDouble() * 6, 2);
    double genTokS = round(1000 / stepMs * running, 1);
    return interval(deployment, at, seq * 190, seq + 1, running, cycles)
        .setPerPositionAcceptance(List.of())
        .setGenThroughputTokS(genTokS)
        .setCycleMs(stepMs)
        .setCudaGraph(true)
        .setSpecEnabled(false)
        .setRawFields(Map.of("cuda graph", "True"))
        .build();
  }

  /**
   * The fields every SGLang TP0 interval line gives, random ones drawn in a fixed order (event id,
   * ingest delay, interval, queue, token usage), so a seed keeps giving the same events.
   */
  private DecodeEvent.Builder interval(
      String deployment, Instant at, long offset, long lineNumber, int running, long cycles) {
    byte[] id = new byte[16];
    random.nextBytes(id);
    return DecodeEvent.newBuilder()
        .setEventId(HEX.formatHex(id))
        .setDeploymentId(deployment)
        .setHost("gpu-node-" + Math.floorMod(deployment.hashCode(), 64))
        .setSource("/var/log/sglang/" + deployment + ".log")
        .setSourceOffset(offset)
        .setLineNumber(lineNumber)
        .setEngine(Engine.SGLANG)
        .setFormat("sglang.decode_batch")
        .setKind(EventKind.INTERVAL)
        .setEventTime(at)
        .setIngestTime(at.plusMillis(40 + random.nextInt(200)))
        .setRank("TP0")
        .setTpRank(0)
        .setIntervalMs(round(1100 + random.nextDouble() * 200, 1))
        .setDecodePasses((long) DECODE_LOG_INTERVAL)
        .setCycles(cycles)
        .setRunningRequests(running)
        .setQueuedRequests(random.nextInt(4))
        .setTokenUsage(round(random.nextDouble() * 0.9, 2));
  }

  private static double round(double v, int decimals) {
    double f = Math.pow(10, decimals);
    return Math.round(v * f) / f;
  }
}
