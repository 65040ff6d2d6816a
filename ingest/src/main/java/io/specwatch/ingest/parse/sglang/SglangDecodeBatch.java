package io.specwatch.ingest.parse.sglang;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.RawFields;
import java.util.Map;

/**
 * One SGLang {@code Decode batch} line, read but not yet normalised. Nullable fields are absent in
 * some engine generations.
 *
 * @param prefix time and rank
 * @param runningRequests {@code #running-req}
 * @param tokens {@code #token} (KV tokens in use)
 * @param tokenUsage {@code token usage} (fraction)
 * @param acceptLength {@code accept len}; null when speculative decoding is off
 * @param acceptRate {@code accept rate} as printed (~Oct 2025 on), or null
 * @param graph {@code cuda graph} / {@code npu graph} / {@code cpu graph}, or null
 * @param genThroughput {@code gen throughput (token/s)}
 * @param queuedRequests {@code #queue-req}
 * @param preAllocatedUsage PD decode nodes' {@code pre-allocated usage}, or null
 * @param retractedRequests PD decode nodes' {@code #retracted-req}, or null
 * @param forwardCt the {@code [forward_ct]} after "Decode batch" (2026), or null
 * @param rawFields every field as printed
 */
public record SglangDecodeBatch(
    LinePrefix prefix,
    int runningRequests,
    long tokens,
    double tokenUsage,
    Double acceptLength,
    Double acceptRate,
    Boolean graph,
    double genThroughput,
    int queuedRequests,
    Double preAllocatedUsage,
    Integer retractedRequests,
    Long forwardCt,
    Map<String, String> rawFields)
    implements MetricLine {

  public SglangDecodeBatch {
    rawFields = RawFields.copyOf(rawFields);
  }

  @Override
  public String format() {
    return SglangDecodeBatchParser.FORMAT;
  }
}
