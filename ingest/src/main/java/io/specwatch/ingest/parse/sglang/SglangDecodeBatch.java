package io.specwatch.ingest.parse.sglang;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.NameSets;
import io.specwatch.ingest.parse.RawFields;
import java.util.Map;
import java.util.Set;

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

  /** Graph field names in the order the parsers read them (the first one present counts). */
  static final String[] GRAPH_KEYS = {"cuda graph", "npu graph", "cpu graph"};

  /** The candidates: the four required fields, accept len, accept rate, the graph fields. */
  private static final NameSets TYPED =
      new NameSets(
          SglangDecodeBatchParser.RUNNING,
          SglangDecodeBatchParser.TOKEN_USAGE,
          SglangDecodeBatchParser.GEN_THROUGHPUT,
          SglangDecodeBatchParser.QUEUE,
          SglangDecodeBatchParser.ACCEPT_LEN,
          SglangDecodeBatchParser.ACCEPT_RATE,
          GRAPH_KEYS[0],
          GRAPH_KEYS[1],
          GRAPH_KEYS[2]);

  /**
   * {@code #running-req}, {@code token usage}, {@code gen throughput (token/s)} and {@code
   * #queue-req} (runningRequests, tokenUsage, genThroughputTokS, queuedRequests), {@code accept
   * len} (acceptLength) and {@code accept rate} (rawAcceptRate) when read, and the graph field that
   * gave cudaGraph. Not {@code #token}, the PD fields or {@code forward_ct}: no typed field holds
   * them.
   */
  @Override
  public Set<String> typedNames() {
    int mask = 0b1111;
    if (acceptLength != null) {
      mask |= 1 << 4;
    }
    if (acceptRate != null) {
      mask |= 1 << 5;
    }
    if (graph != null) {
      RawFields raw = (RawFields) rawFields;
      for (int g = 0; g < GRAPH_KEYS.length; g++) {
        if (raw.has(GRAPH_KEYS[g])) {
          mask |= 1 << (6 + g);
          break;
        }
      }
    }
    return TYPED.get(mask);
  }

  @Override
  public String format() {
    return SglangDecodeBatchParser.FORMAT;
  }
}
