package io.specwatch.sink.finetune;

/**
 * One prompt that may be selected: the worst request (lowest tau; ties: earliest, then event id)
 * among the {@code duplicates} requests that share its prompt hash (or prompt reference when the
 * hash is missing), with its category's median tau over all candidate prompts of that category.
 */
public record Candidate(
    String category,
    String promptKey,
    long duplicates,
    String requestId,
    String eventId,
    String deploymentId,
    String promptHash,
    String promptRef,
    String model,
    String draftModelVersion,
    String finishedAt,
    double tau,
    long outputTokens,
    long verifyCycles,
    long acceptedTokens,
    long draftedTokens,
    double categoryMedianTau,
    long categoryCandidates) {

  /** tau relative to its category's median: below 1 means worse than a typical prompt there. */
  public double relativeTau() {
    return tau / categoryMedianTau;
  }
}
