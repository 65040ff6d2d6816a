package io.specwatch.ingest.parse.trtllm;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.RawFields;
import java.util.Map;

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

  /** Whether the iteration carried speculative-decoding stats. */
  public boolean speculative() {
    return numDraftTokens != null;
  }
}
