package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.NameSets;
import io.specwatch.ingest.parse.RawFields;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /**
   * The acceptance rate field (rawAcceptRate), {@code Mean acceptance length} (acceptLength) and
   * {@code Per-position acceptance rate} (perPositionAcceptance) when read; the accepted, drafted
   * and emitted token counts (acceptedTokens, draftedTokens, emittedTokens) only when they are per
   * interval: v0's are totals since the engine started, and its events carry their deltas. Not the
   * throughputs, {@code System efficiency} or {@code Number of speculative tokens}.
   */
  @Override
  public Set<String> typedNames() {
    int mask = 0;
    if (acceptRate != null) {
      mask |= format.equals(VllmV1Parser.SPEC_V4) ? 1 : 1 << 1;
    }
    if (meanAcceptanceLength != null) {
      mask |= 1 << 2;
    }
    if (!perPositionAcceptance.isEmpty()) {
      mask |= 1 << 3;
    }
    if (!cumulative) {
      mask |= format.equals(VllmV1Parser.SPEC_V1) ? 0b11 << 6 : 0b11 << 4;
      if (emittedTokens != null) {
        mask |= 1 << 8;
      }
    }
    return TYPED.get(mask);
  }

  private static final NameSets TYPED =
      new NameSets(
          VllmReads.AVG_DRAFT_ACCEPTANCE_RATE,
          VllmReads.DRAFT_ACCEPTANCE_RATE,
          VllmReads.MEAN_ACCEPTANCE_LENGTH,
          VllmReads.PER_POSITION,
          VllmReads.ACCEPTED,
          VllmReads.DRAFTED,
          VllmReads.NUM_ACCEPTED,
          VllmReads.NUM_DRAFT,
          VllmReads.NUM_EMITTED);

  @Override
  public LinePrefix prefix() {
    return LinePrefix.NONE;
  }
}
