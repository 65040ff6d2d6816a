package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.RawFields;
import java.util.Map;
import java.util.Set;

/**
 * vLLM v0's {@code SpecDecodeWorker stage times: average_time_per_proposal_tok_ms=F
 * scoring_time_ms=F verification_time_ms=F}.
 *
 * @param stamp printed time without year, or null
 * @param processTag process tag, or null
 * @param proposalMsPerToken draft time per proposed token, ms
 * @param scoringMs target-model scoring (verify forward) time per step, ms
 * @param verificationMs rejection-sampling time per step, ms
 * @param rawFields every field as printed
 */
public record VllmStageTimes(
    VllmStamp stamp,
    String processTag,
    double proposalMsPerToken,
    double scoringMs,
    double verificationMs,
    Map<String, String> rawFields)
    implements VllmLine {

  public VllmStageTimes {
    rawFields = RawFields.copyOf(rawFields);
  }

  static final String PROPOSAL = "average_time_per_proposal_tok_ms";
  static final String SCORING = "scoring_time_ms";
  static final String VERIFICATION = "verification_time_ms";
  private static final Set<String> TYPED = Set.of(SCORING, VERIFICATION);

  /**
   * {@code scoring_time_ms} (verifyMs) and {@code verification_time_ms} (overheadMs); not the
   * proposal time per token, which draftMs multiplies by k.
   */
  @Override
  public Set<String> typedNames() {
    return TYPED;
  }

  @Override
  public String format() {
    return VllmV0Parser.STAGE_TIMES;
  }

  @Override
  public LinePrefix prefix() {
    return LinePrefix.NONE;
  }
}
