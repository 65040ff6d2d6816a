package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import java.util.List;

/**
 * vLLM V1 engine lines, every ~10 s per DP engine:
 *
 * <ul>
 *   <li>{@code vllm.v1.spec_decoding.v1}: {@code Speculative metrics: Draft acceptance rate: F,
 *       Number of accepted tokens: N, Number of draft tokens: N, } (rate as a fraction)
 *   <li>{@code vllm.v1.spec_decoding.v2}: {@code SpecDecoding metrics: Draft acceptance rate: F%,
 *       Accepted: N tokens, Drafted: N tokens}
 *   <li>{@code vllm.v1.spec_decoding.v3}: v2 plus {@code Mean acceptance length: F} and {@code
 *       Per-position acceptance rate: F, F, F}
 *   <li>{@code vllm.v1.spec_decoding.v4}: {@code SpecDecoding metrics: Mean acceptance length: F,
 *       Accepted throughput: F tokens/s, Drafted throughput: F tokens/s, Accepted: N tokens,
 *       Drafted: N tokens, Per-position acceptance rate: F, F, F, Avg Draft acceptance rate: F%}
 *   <li>{@code vllm.v1.engine}: {@code Engine 000: Avg prompt throughput: F tokens/s, Avg
 *       generation throughput: F tokens/s, Running: N reqs, Waiting: N reqs, GPU KV cache usage:
 *       F%, Prefix cache hit rate: F%} (the {@code Engine NNN:} part is optional)
 * </ul>
 *
 * The v0 {@code Speculative metrics} line (with {@code System efficiency}) is left to {@link
 * VllmV0Parser}. Never throws.
 */
public final class VllmV1Parser implements LineParser {

  public static final String FAMILY = "vllm.v1";

  public static final String SPEC_V1 = "vllm.v1.spec_decoding.v1";
  public static final String SPEC_V2 = "vllm.v1.spec_decoding.v2";
  public static final String SPEC_V3 = "vllm.v1.spec_decoding.v3";
  public static final String SPEC_V4 = "vllm.v1.spec_decoding.v4";
  public static final String ENGINE = "vllm.v1.engine";

  private static final String SPEC_DECODING = "SpecDecoding metrics:";
  private static final String SPECULATIVE = "Speculative metrics:";
  private static final String THROUGHPUT = "Avg prompt throughput:";
  private static final String ENGINE_WORD = "Engine ";

  @Override
  public String format() {
    return FAMILY;
  }

  @Override
  public List<String> markers() {
    return List.of(SPEC_DECODING, SPECULATIVE, THROUGHPUT);
  }

  @Override
  public ParseResult parse(String line) {
    if (line == null) {
      return ParseResult.NOT_METRIC;
    }
    boolean specDecoding = line.contains(SPEC_DECODING);
    boolean speculative =
        !specDecoding
            && line.contains(SPECULATIVE)
            && !line.contains("System efficiency")
            && !line.contains("emitted tokens")
            && !line.contains("speculative tokens");
    boolean engine =
        !specDecoding
            && !speculative
            && line.contains(THROUGHPUT)
            && (engineTag(line) >= 0 || line.contains("Waiting:") || line.contains("Prefix cache"));
    if (!specDecoding && !speculative && !engine) {
      return ParseResult.NOT_METRIC;
    }
    String guess = engine ? ENGINE : speculative ? SPEC_V1 : FAMILY;
    if (line.length() > VllmReads.MAX_LINE) {
      return ParseResult.failed(guess, "line longer than " + VllmReads.MAX_LINE + " characters");
    }
    VllmPrefix.Split split = VllmPrefix.split(line);
    if (split.error() != null) {
      return ParseResult.failed(guess, split.error());
    }
    String body = split.body();
    if (engine) {
      int throughput = body.indexOf(THROUGHPUT);
      Integer index = null;
      int tag = engineTag(body);
      if (tag >= 0 && engineTagEnd(body, tag) <= throughput) {
        index = engineIndex(body, tag);
      }
      VllmFields f = VllmFields.colonList(body, throughput);
      String cut = f.cutTail();
      if (cut != null) {
        return ParseResult.failed(ENGINE, cut);
      }
      return VllmReads.throughput(ENGINE, split, index, f, VllmReads.WAITING);
    }
    if (speculative) {
      return VllmReads.spec(
          SPEC_V1,
          split,
          VllmFields.colonList(body, body.indexOf(SPECULATIVE) + SPECULATIVE.length()),
          VllmReads.DRAFT_ACCEPTANCE_RATE,
          false,
          VllmReads.NUM_ACCEPTED,
          VllmReads.NUM_DRAFT,
          false);
    }
    VllmFields f = VllmFields.colonList(body, body.indexOf(SPEC_DECODING) + SPEC_DECODING.length());
    String cut = f.cutTail();
    if (f.has(VllmReads.ACCEPTED_THROUGHPUT) || f.has(VllmReads.AVG_DRAFT_ACCEPTANCE_RATE)) {
      if (cut != null) {
        return ParseResult.failed(SPEC_V4, cut);
      }
      return VllmReads.spec(
          SPEC_V4,
          split,
          f,
          VllmReads.AVG_DRAFT_ACCEPTANCE_RATE,
          true,
          VllmReads.ACCEPTED,
          VllmReads.DRAFTED,
          false);
    }
    String format =
        f.has(VllmReads.MEAN_ACCEPTANCE_LENGTH) || f.has(VllmReads.PER_POSITION)
            ? SPEC_V3
            : SPEC_V2;
    if (cut != null) {
      return ParseResult.failed(format, cut);
    }
    return VllmReads.spec(
        format,
        split,
        f,
        VllmReads.DRAFT_ACCEPTANCE_RATE,
        true,
        VllmReads.ACCEPTED,
        VllmReads.DRAFTED,
        false);
  }

  /**
   * Where the first match of the regex {@code Engine (\\d{1,6}):\\s*} starts in {@code s}, or -1:
   * {@code Engine }, one to six ASCII digits and a colon ({@code VllmFastParsePrefixProperties}).
   */
  static int engineTag(String s) {
    for (int at = s.indexOf(ENGINE_WORD); at >= 0; at = s.indexOf(ENGINE_WORD, at + 1)) {
      int digits = at + ENGINE_WORD.length();
      int d = digits;
      while (d < s.length() && d - digits <= 6 && s.charAt(d) >= '0' && s.charAt(d) <= '9') {
        d++;
      }
      if (d > digits && d - digits <= 6 && d < s.length() && s.charAt(d) == ':') {
        return at;
      }
    }
    return -1;
  }

  /** The end of the engine tag match at {@code at}: after the colon and any regex whitespace. */
  static int engineTagEnd(String s, int at) {
    int i = s.indexOf(':', at) + 1;
    while (i < s.length() && VllmPrefix.regexSpace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /** The engine number of the tag match at {@code at}. */
  static int engineIndex(String s, int at) {
    int v = 0;
    for (int i = at + ENGINE_WORD.length(); s.charAt(i) != ':'; i++) {
      v = v * 10 + (s.charAt(i) - '0');
    }
    return v;
  }
}
