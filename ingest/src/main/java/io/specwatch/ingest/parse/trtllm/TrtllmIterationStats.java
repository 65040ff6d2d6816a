package io.specwatch.ingest.parse.trtllm;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.NameSets;
import io.specwatch.ingest.parse.RawFields;
import java.util.Map;
import java.util.Set;

/**
 * One TensorRT-LLM iteration-stats JSON object. {@code specDecodingStats} fields are null when the
 * object had none (a non-speculative engine).
 *
 * @param prefix bracketed log prefix before the JSON, or {@link LinePrefix#NONE}
 * @param timestamp the object's {@code timestamp} read as a local time, or null
 * @param iter {@code iter}, or null
 * @param iterLatencyMs {@code iterLatencyMS}: wall time of the whole iteration
 * @param activeRequests {@code numActiveRequests}, or null
 * @param queuedRequests {@code numQueuedRequests}, or null
 * @param numDraftTokens {@code specDecodingStats.numDraftTokens}, or null
 * @param numAcceptedTokens {@code specDecodingStats.numAcceptedTokens}, or null
 * @param numRequestsWithDraftTokens {@code specDecodingStats.numRequestsWithDraftTokens}, or null
 * @param acceptanceLength {@code specDecodingStats.acceptanceLength}, or null
 * @param draftLatencyMs {@code specDecodingStats.iterLatencyMS}: draft time of the iteration
 * @param draftOverhead {@code specDecodingStats.draftOverhead}: draft / iteration latency
 * @param rawFields every scalar as printed, nested names joined with '.'
 */
public record TrtllmIterationStats(
    LinePrefix prefix,
    java.time.LocalDateTime timestamp,
    Long iter,
    double iterLatencyMs,
    Integer activeRequests,
    Integer queuedRequests,
    Long numDraftTokens,
    Long numAcceptedTokens,
    Long numRequestsWithDraftTokens,
    Double acceptanceLength,
    Double draftLatencyMs,
    Double draftOverhead,
    Map<String, String> rawFields)
    implements MetricLine {

  public TrtllmIterationStats {
    rawFields = RawFields.copyOf(rawFields);
  }

  @Override
  public String format() {
    return TrtllmIterationStatsParser.FORMAT;
  }

  /**
   * {@code iterLatencyMS} (intervalMs, cycleMs), {@code numActiveRequests} and {@code
   * numQueuedRequests} (runningRequests, queuedRequests) when read; with speculative stats also
   * {@code specDecodingStats.numDraftTokens}, {@code .numAcceptedTokens}, {@code
   * .numRequestsWithDraftTokens} (draftedTokens, acceptedTokens, cycles), {@code .iterLatencyMS}
   * (draftMs) and {@code .acceptanceLength} when the event's acceptLength is that value (not when
   * it is recomputed from the counts). Not the timestamp (its microseconds), {@code iter}, memory
   * figures or {@code draftOverhead}.
   */
  @Override
  public Set<String> typedNames() {
    int mask = 1; // iterLatencyMS
    if (activeRequests != null) {
      mask |= 1 << 1;
    }
    if (queuedRequests != null) {
      mask |= 1 << 2;
    }
    if (speculative()) {
      mask |= 1 << 3; // numDraftTokens
      if (numAcceptedTokens != null) {
        mask |= 1 << 4;
      }
      if (numRequestsWithDraftTokens != null) {
        mask |= 1 << 5;
      }
      if (acceptanceLength != null
          && acceptanceLength >= 1.0
          && numRequestsWithDraftTokens != null
          && numRequestsWithDraftTokens > 0) {
        mask |= 1 << 6; // acceptanceLength, as printed
      }
      if (draftLatencyMs != null) {
        mask |= 1 << 7; // iterLatencyMS under specDecodingStats
      }
    }
    return TYPED.get(mask);
  }

  private static final NameSets TYPED =
      new NameSets(
          IterationStatsKeys.ITER_LATENCY,
          IterationStatsKeys.NUM_ACTIVE,
          IterationStatsKeys.NUM_QUEUED,
          IterationStatsKeys.SPEC_NAMES[0], // numDraftTokens
          IterationStatsKeys.SPEC_NAMES[1], // numAcceptedTokens
          IterationStatsKeys.SPEC_NAMES[2], // numRequestsWithDraftTokens
          IterationStatsKeys.SPEC_NAMES[3], // acceptanceLength
          IterationStatsKeys.SPEC_NAMES[4]); // iterLatencyMS

  /** Whether the iteration carried speculative-decoding stats. */
  public boolean speculative() {
    return numDraftTokens != null;
  }
}
