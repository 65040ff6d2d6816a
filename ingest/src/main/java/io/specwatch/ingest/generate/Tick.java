package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.List;

/**
 * A simulated stretch of {@code passes} decode passes of one deployment's batch, the unit the
 * writers turn into log lines and the publisher into events.
 *
 * @param index 0-based tick number of the deployment
 * @param firstStep engine step (forward pass) number of the first pass
 * @param start event time of the first pass
 * @param end event time after the last pass
 * @param passes decode passes (one cycle per running request each)
 * @param cycleMs mean time of one pass (T_cyc, or t_AR for a plain deployment)
 * @param draftMs mean draft phase per pass (0 when plain)
 * @param verifyMs mean verify phase per pass (0 when plain)
 * @param overheadMs mean other time per pass (0 when plain)
 * @param queued requests waiting
 * @param kvTokens KV tokens in use at the end
 * @param batch per running request: what happened in this tick
 * @param finished requests that finished at the end of this tick
 * @param segment true parameters in force
 * @param newSegment first tick of the deployment or of a new segment (config line due)
 */
public record Tick(
    long index,
    long firstStep,
    Instant start,
    Instant end,
    int passes,
    double cycleMs,
    double draftMs,
    double verifyMs,
    double overheadMs,
    int queued,
    long kvTokens,
    List<RequestStep> batch,
    List<FinishedRequest> finished,
    Segment segment,
    boolean newSegment) {

  /**
   * One running request in a tick.
   *
   * @param requestId request id
   * @param category prompt category
   * @param cycles draft-verify cycles (= passes)
   * @param positionAccepted cycles that accepted draft position i (non-increasing in i)
   * @param histogram cycles that accepted exactly i drafts, i = 0..k
   * @param promptTokens prompt tokens when the request started in this tick, else 0
   */
  public record RequestStep(
      String requestId,
      String category,
      long cycles,
      long[] positionAccepted,
      long[] histogram,
      long promptTokens) {

    public long accepted() {
      long sum = 0;
      for (long c : positionAccepted) {
        sum += c;
      }
      return sum;
    }

    /** Tokens emitted: accepted drafts plus one bonus token per cycle. */
    public long emitted() {
      return cycles + accepted();
    }
  }

  /**
   * A finished request's totals.
   *
   * @param requestId request id
   * @param category prompt category
   * @param promptHash hash of the (synthetic) prompt
   * @param promptTokens prompt tokens
   * @param outputTokens generated tokens (cycles + accepted)
   * @param cycles draft-verify cycles
   * @param accepted accepted draft tokens
   * @param drafted drafted tokens
   * @param histogram cycles that accepted exactly i drafts
   * @param startedAt event time of its first pass
   */
  public record FinishedRequest(
      String requestId,
      String category,
      String promptHash,
      long promptTokens,
      long outputTokens,
      long cycles,
      long accepted,
      long drafted,
      long[] histogram,
      Instant startedAt) {}

  public int running() {
    return batch.size();
  }

  public long cycles() {
    return (long) passes * batch.size();
  }

  public long accepted() {
    return batch.stream().mapToLong(RequestStep::accepted).sum();
  }

  public long emitted() {
    return batch.stream().mapToLong(RequestStep::emitted).sum();
  }

  /** Summed per-position accepted counts over the batch (length k). */
  public long[] positionAccepted(int k) {
    long[] sum = new long[k];
    for (RequestStep r : batch) {
      for (int i = 0; i < k && i < r.positionAccepted().length; i++) {
        sum[i] += r.positionAccepted()[i];
      }
    }
    return sum;
  }

  /** Wall time covered, ms. */
  public double durationMs() {
    return passes * cycleMs;
  }
}
