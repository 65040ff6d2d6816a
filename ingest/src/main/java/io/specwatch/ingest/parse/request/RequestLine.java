package io.specwatch.ingest.parse.request;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One finished request's speculative acceptance, read from a {@code request.v1} or {@code
 * sglang.meta_info} JSON line. Becomes a RequestAcceptance, not a DecodeEvent.
 *
 * @param format {@link RequestJsonParser#REQUEST_V1} or {@link RequestJsonParser#SGLANG_META_INFO}
 * @param finishedAt event time from {@code ts}/{@code finished_at}, or null when the line had none
 * @param requestId request id
 * @param promptHash prompt hash, or null
 * @param promptRef prompt reference, or null
 * @param promptCategory prompt category, or null
 * @param model target model, or null
 * @param draftModelVersion draft model version, or null
 * @param promptTokens prompt tokens, or null
 * @param outputTokens generated tokens
 * @param verifyCycles draft-verify cycles, greater than zero
 * @param acceptedTokens accepted draft tokens (bonus excluded), or null
 * @param draftedTokens drafted tokens, or null
 * @param rawAcceptRate acceptance rate as printed, or null
 * @param acceptHistogram cycles by accepted-draft count, empty when absent
 * @param rawFields top-level (meta_info) fields as printed
 */
public record RequestLine(
    String format,
    Instant finishedAt,
    String requestId,
    String promptHash,
    String promptRef,
    String promptCategory,
    String model,
    String draftModelVersion,
    Long promptTokens,
    long outputTokens,
    long verifyCycles,
    Long acceptedTokens,
    Long draftedTokens,
    Double rawAcceptRate,
    List<Long> acceptHistogram,
    Map<String, String> rawFields)
    implements MetricLine {

  public RequestLine {
    acceptHistogram = List.copyOf(acceptHistogram);
    rawFields = Map.copyOf(rawFields);
  }

  @Override
  public LinePrefix prefix() {
    return LinePrefix.NONE;
  }

  /** Normalised tau: output tokens per verify cycle. */
  public double acceptLength() {
    return (double) outputTokens / verifyCycles;
  }
}
