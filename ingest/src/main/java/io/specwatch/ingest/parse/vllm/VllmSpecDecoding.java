package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.RawFields;
import java.util.List;
import java.util.Map;

/**
 * One vLLM speculative-decoding summary line (v0 {@code Speculative metrics}, or one of V1's four
 * formats), read but not normalised. Nullable fields are absent in some formats or printed as
 * {@code nan}.
 *
 * @param format format id, e.g. {@code vllm.v1.spec_decoding.v4}
 * @param stamp printed time without year, or null
 * @param processTag e.g. {@code APIServer pid=1}, or null
 * @param acceptRate {@code Draft acceptance rate} / {@code Avg Draft acceptance rate} as printed
 *     (fraction or percent, see {@link #ratePercent}); null when absent or {@code nan}
 * @param ratePercent whether {@link #acceptRate} is printed in percent
 * @param meanAcceptanceLength {@code Mean acceptance length} (tau incl. bonus), or null
 * @param acceptedTokens {@code Accepted} / {@code Number of accepted tokens}
 * @param draftedTokens {@code Drafted} / {@code Number of draft tokens}
 * @param emittedTokens v0 {@code Number of emitted tokens}, or null
 * @param numSpeculativeTokens v0 {@code Number of speculative tokens} (k), or null
 * @param systemEfficiency v0 {@code System efficiency}, or null
 * @param acceptedThroughput {@code Accepted throughput} tokens/s, or null
 * @param draftedThroughput {@code Drafted throughput} tokens/s, or null
 * @param perPositionAcceptance {@code Per-position acceptance rate} list, empty when absent
 * @param cumulative whether the counts are totals since engine start (v0) rather than per interval
 * @param rawFields every field as printed
 */
public record VllmSpecDecoding(
    String format,
    VllmStamp stamp,
    String processTag,
    Double acceptRate,
    boolean ratePercent,
    Double meanAcceptanceLength,
    long acceptedTokens,
    long draftedTokens,
    Long emittedTokens,
    Integer numSpeculativeTokens,
    Double systemEfficiency,
    Double acceptedThroughput,
    Double draftedThroughput,
    List<Double> perPositionAcceptance,
    boolean cumulative,
    Map<String, String> rawFields)
    implements VllmLine {

  public VllmSpecDecoding {
    perPositionAcceptance = List.copyOf(perPositionAcceptance);
    rawFields = RawFields.copyOf(rawFields);
  }

  @Override
  public LinePrefix prefix() {
    return LinePrefix.NONE;
  }
}
