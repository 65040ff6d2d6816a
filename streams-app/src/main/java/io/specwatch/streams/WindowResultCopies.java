package io.specwatch.streams;

import io.specwatch.schemas.WindowResult;

/**
 * Copies of a {@link WindowResult} with the fields the run-context and baseline stages set, built
 * with the all-fields constructor: {@code WindowResult.newBuilder(row)} deep-copied and validated
 * every field of every row (a few percent of the stream thread). The copies equal what the builder
 * made ({@code WindowResultCopiesTest}); the field lists are shared, never mutated.
 */
final class WindowResultCopies {
  private WindowResultCopies() {}

  /** {@code row} with {@code runContextId}. */
  static WindowResult withRunContextId(WindowResult row, String runContextId) {
    return copy(
        row,
        runContextId,
        row.getBaselineSource(),
        row.getBaselineStepMs(),
        row.getBaselineTokS(),
        row.getSpeedup(),
        row.getBreakEvenAcceptLength(),
        row.getAcceptMargin());
  }

  /** {@code row} with {@code baselineSource}. */
  static WindowResult withBaselineSource(WindowResult row, String baselineSource) {
    return copy(
        row,
        row.getRunContextId(),
        baselineSource,
        row.getBaselineStepMs(),
        row.getBaselineTokS(),
        row.getSpeedup(),
        row.getBreakEvenAcceptLength(),
        row.getAcceptMargin());
  }

  /** {@code row} with every baseline field. */
  static WindowResult withBaseline(
      WindowResult row,
      String baselineSource,
      Double baselineStepMs,
      Double baselineTokS,
      Double speedup,
      Double breakEvenAcceptLength,
      Double acceptMargin) {
    return copy(
        row,
        row.getRunContextId(),
        baselineSource,
        baselineStepMs,
        baselineTokS,
        speedup,
        breakEvenAcceptLength,
        acceptMargin);
  }

  private static WindowResult copy(
      WindowResult r,
      String runContextId,
      String baselineSource,
      Double baselineStepMs,
      Double baselineTokS,
      Double speedup,
      Double breakEvenAcceptLength,
      Double acceptMargin) {
    return new WindowResult(
        r.getDeploymentId(),
        r.getPromptCategory(),
        r.getBatchBucket(),
        r.getWindowStart(),
        r.getWindowEnd(),
        r.getEvents(),
        r.getCycles(),
        r.getRequests(),
        r.getSpecEnabled(),
        r.getMeanAcceptLength(),
        r.getAcceptLengthP50(),
        r.getAcceptLengthP95(),
        r.getAcceptRate(),
        r.getAcceptedTokens(),
        r.getDraftedTokens(),
        r.getPerPositionAcceptance(),
        r.getPerPositionConditional(),
        r.getDraftMsP50(),
        r.getDraftMsP95(),
        r.getDraftMsP99(),
        r.getVerifyMsP50(),
        r.getVerifyMsP95(),
        r.getVerifyMsP99(),
        r.getCycleMsP50(),
        r.getCycleMsP95(),
        r.getCycleMsP99(),
        r.getMeanCycleMs(),
        r.getEffectiveTokSPerRequest(),
        r.getBatchTokS(),
        r.getMeanBatchSize(),
        baselineStepMs,
        baselineTokS,
        baselineSource,
        speedup,
        breakEvenAcceptLength,
        acceptMargin,
        runContextId,
        r.getLateEvents());
  }
}
