package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.util.UUID;

/** DecodeEvent fixtures with only the fields the window metrics read. */
final class TestEvents {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private TestEvents() {}

  static DecodeEvent.Builder event(String deployment, long secondsAfterT0) {
    Instant at = T0.plusSeconds(secondsAfterT0);
    return DecodeEvent.newBuilder()
        .setEventId(UUID.randomUUID().toString())
        .setDeploymentId(deployment)
        .setHost("gpu-1")
        .setSource("/var/log/sglang.log")
        .setEngine(Engine.SGLANG)
        .setFormat("sglang.decode_batch")
        .setKind(EventKind.INTERVAL)
        .setEventTime(at)
        .setIngestTime(at.plusMillis(5));
  }

  /** An interval event with every metric input set. */
  static DecodeEvent full(
      String deployment,
      long secondsAfterT0,
      long cycles,
      double tau,
      long accepted,
      long drafted,
      double cycleMs,
      double genTokS,
      double intervalMs,
      int running) {
    return event(deployment, secondsAfterT0)
        .setCycles(cycles)
        .setAcceptLength(tau)
        .setAcceptedTokens(accepted)
        .setDraftedTokens(drafted)
        .setCycleMs(cycleMs)
        .setGenThroughputTokS(genTokS)
        .setIntervalMs(intervalMs)
        .setRunningRequests(running)
        .build();
  }
}
