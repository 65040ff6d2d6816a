package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

// Round 9 reference: VllmV1Parser as it was before the round-9 hand-written scans (commit a0190fc),
// verbatim but for the class names; the VllmFastParse*Properties check the new code gives the same
// results. Not used by production code.
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
 * ReferenceVllmV0Parser}. Never throws.
 */
public final class ReferenceVllmV1Parser implements LineParser {

  public static final String FAMILY = "vllm.v1";

  public static final String SPEC_V1 = "vllm.v1.spec_decoding.v1";
  public static final String SPEC_V2 = "vllm.v1.spec_decoding.v2";
  public static final String SPEC_V3 = "vllm.v1.spec_decoding.v3";
  public static final String SPEC_V4 = "vllm.v1.spec_decoding.v4";
  public static final String ENGINE = "vllm.v1.engine";

  private static final String SPEC_DECODING = "SpecDecoding metrics:";
  private static final String SPECULATIVE = "Speculative metrics:";
  private static final String THROUGHPUT = "Avg prompt throughput:";
  private static final Pattern ENGINE_TAG = Pattern.compile("Engine (\\d{1,6}):\\s*");

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
            && (ENGINE_TAG.matcher(line).find()
                || line.contains("Waiting:")
                || line.contains("Prefix cache"));
    if (!specDecoding && !speculative && !engine) {
      return ParseResult.NOT_METRIC;
    }
    String guess = engine ? ENGINE : speculative ? SPEC_V1 : FAMILY;
    if (line.length() > ReferenceVllmReads.MAX_LINE) {
      return ParseResult.failed(
          guess, "line longer than " + ReferenceVllmReads.MAX_LINE + " characters");
    }
    ReferenceVllmPrefix.Split split = ReferenceVllmPrefix.split(line);
    if (split.error() != null) {
      return ParseResult.failed(guess, split.error());
    }
    String body = split.body();
    if (engine) {
      Matcher m = ENGINE_TAG.matcher(body);
      Integer index = null;
      if (m.find() && m.end() <= body.indexOf(THROUGHPUT)) {
        index = Integer.valueOf(m.group(1));
      }
      String list = body.substring(body.indexOf(THROUGHPUT));
      String cut = ReferenceVllmFields.colonList(list).cutTail();
      if (cut != null) {
        return ParseResult.failed(ENGINE, cut);
      }
      return ReferenceVllmReads.throughput(ENGINE, split, index, list, ReferenceVllmReads.WAITING);
    }
    if (speculative) {
      return ReferenceVllmReads.spec(
          SPEC_V1,
          split,
          ReferenceVllmFields.colonList(after(body, SPECULATIVE)),
          ReferenceVllmReads.DRAFT_ACCEPTANCE_RATE,
          false,
          ReferenceVllmReads.NUM_ACCEPTED,
          ReferenceVllmReads.NUM_DRAFT,
          false);
    }
    ReferenceVllmFields f = ReferenceVllmFields.colonList(after(body, SPEC_DECODING));
    String cut = f.cutTail();
    if (f.has(ReferenceVllmReads.ACCEPTED_THROUGHPUT)
        || f.has(ReferenceVllmReads.AVG_DRAFT_ACCEPTANCE_RATE)) {
      if (cut != null) {
        return ParseResult.failed(SPEC_V4, cut);
      }
      return ReferenceVllmReads.spec(
          SPEC_V4,
          split,
          f,
          ReferenceVllmReads.AVG_DRAFT_ACCEPTANCE_RATE,
          true,
          ReferenceVllmReads.ACCEPTED,
          ReferenceVllmReads.DRAFTED,
          false);
    }
    String format =
        f.has(ReferenceVllmReads.MEAN_ACCEPTANCE_LENGTH) || f.has(ReferenceVllmReads.PER_POSITION)
            ? SPEC_V3
            : SPEC_V2;
    if (cut != null) {
      return ParseResult.failed(format, cut);
    }
    return ReferenceVllmReads.spec(
        format,
        split,
        f,
        ReferenceVllmReads.DRAFT_ACCEPTANCE_RATE,
        true,
        ReferenceVllmReads.ACCEPTED,
        ReferenceVllmReads.DRAFTED,
        false);
  }

  private static String after(String body, String marker) {
    return body.substring(body.indexOf(marker) + marker.length());
  }
}
