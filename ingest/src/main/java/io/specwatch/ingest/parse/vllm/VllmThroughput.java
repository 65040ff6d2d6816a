package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.NameSets;
import io.specwatch.ingest.parse.RawFields;
import java.util.Map;
import java.util.Set;

/**
 * vLLM's throughput line: v0 {@code Avg prompt throughput ... Running: N reqs, Swapped: N reqs,
 * Pending: N reqs, ...} or V1 {@code Engine 000: Avg prompt throughput ... Running: N reqs,
 * Waiting: N reqs, ...}.
 *
 * @param format format id
 * @param stamp printed time without year, or null
 * @param processTag e.g. {@code APIServer pid=1}, or null
 * @param engineIndex V1 {@code Engine NNN}, or null
 * @param promptThroughput {@code Avg prompt throughput} tokens/s
 * @param genThroughput {@code Avg generation throughput} tokens/s
 * @param running {@code Running}
 * @param queued {@code Waiting} (V1) or {@code Pending} (v0)
 * @param swapped v0 {@code Swapped}, or null
 * @param gpuKvCachePercent {@code GPU KV cache usage} in percent, or null
 * @param rawFields every field as printed
 */
public record VllmThroughput(
    String format,
    VllmStamp stamp,
    String processTag,
    Integer engineIndex,
    double promptThroughput,
    double genThroughput,
    int running,
    Integer queued,
    Integer swapped,
    Double gpuKvCachePercent,
    Map<String, String> rawFields)
    implements VllmLine {

  public VllmThroughput {
    rawFields = RawFields.copyOf(rawFields);
  }

  /**
   * {@code Avg generation throughput} (genThroughputTokS), {@code Running} (runningRequests), the
   * queue field ({@code Waiting} in V1, {@code Pending} in v0: queuedRequests) and {@code GPU KV
   * cache usage} (tokenUsage, as a fraction) when read. Not the prompt throughput, {@code Swapped}
   * or the other cache figures: no typed field holds them.
   */
  @Override
  public Set<String> typedNames() {
    int mask = 0b11;
    if (queued != null) {
      mask |= format.startsWith(VllmV0Parser.FAMILY + ".") ? 0b1000 : 0b100;
    }
    if (gpuKvCachePercent != null) {
      mask |= 0b10000;
    }
    return TYPED.get(mask);
  }

  private static final NameSets TYPED =
      new NameSets(
          VllmReads.GEN_THROUGHPUT,
          VllmReads.RUNNING,
          VllmReads.WAITING,
          VllmReads.PENDING,
          VllmReads.GPU_KV);

  @Override
  public LinePrefix prefix() {
    return engineIndex == null
        ? LinePrefix.NONE
        : new LinePrefix(null, engineRank(engineIndex), null, engineIndex, null);
  }

  /** Rank text of a V1 DP engine, {@code engine 000}. */
  public static String engineRank(int index) {
    if (index >= 0 && index < ENGINE_RANKS.length) {
      return ENGINE_RANKS[index]; // String.format per line was ~5 % of the shipper's CPU
    }
    return String.format(java.util.Locale.ROOT, "engine %03d", index);
  }

  private static final String[] ENGINE_RANKS = new String[256];

  static {
    for (int i = 0; i < ENGINE_RANKS.length; i++) {
      ENGINE_RANKS[i] = String.format(java.util.Locale.ROOT, "engine %03d", i);
    }
  }
}
