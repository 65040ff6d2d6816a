package io.specwatch.ingest.parse.instrumented;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One verify cycle of one rank's batch, from a {@code specwatch.cycle.v1} JSON line (validated).
 *
 * @param ts event time
 * @param deployment deployment named by the line, or null (the shipper's)
 * @param rank rank, or null
 * @param step engine step counter
 * @param batchSize requests in the batch, >= 1
 * @param numDraftTokens draft tokens proposed per request this cycle, >= 0
 * @param accepted per-request accepted draft tokens (length batchSize), or null when the line gave
 *     totals
 * @param acceptedTokens accepted draft tokens of the batch (sum of accepted, or the printed total)
 * @param draftedTokens drafted tokens of the batch (batchSize * numDraftTokens, or the printed
 *     total)
 * @param draftMs draft phase ms, or null
 * @param verifyMs verify phase ms, or null
 * @param overheadMs other ms, or null
 * @param cycleMs whole cycle ms, > 0
 * @param phases phase name to ms, in line order (empty when absent)
 * @param promptCategory prompt category, or null
 * @param requestIds request ids (empty when absent)
 * @param perPositionAccepted requests that accepted draft position i, empty when unknown
 * @param rawFields every top-level field as printed (phases flattened as {@code phases.<name>})
 */
public record CycleLine(
    Instant ts,
    String deployment,
    Integer rank,
    long step,
    int batchSize,
    int numDraftTokens,
    List<Integer> accepted,
    long acceptedTokens,
    long draftedTokens,
    Double draftMs,
    Double verifyMs,
    Double overheadMs,
    double cycleMs,
    Map<String, Double> phases,
    String promptCategory,
    List<String> requestIds,
    List<Long> perPositionAccepted,
    Map<String, String> rawFields)
    implements MetricLine {

  public CycleLine {
    accepted = accepted == null ? null : List.copyOf(accepted);
    phases = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(phases));
    requestIds = List.copyOf(requestIds);
    perPositionAccepted = List.copyOf(perPositionAccepted);
    rawFields = io.specwatch.ingest.parse.RawFields.copyOf(rawFields);
  }

  @Override
  public String format() {
    return CycleJsonParser.FORMAT;
  }

  @Override
  public LinePrefix prefix() {
    return rank == null ? LinePrefix.NONE : new LinePrefix(null, "rank " + rank, rank, null, null);
  }

  /** tau of the cycle: 1 + accepted draft tokens per request (the bonus token counts). */
  public double acceptLength() {
    return 1.0 + (double) acceptedTokens / batchSize;
  }
}
