package io.specwatch.ingest.normalise;

/** What an engine's printed acceptance rate means; the id goes to rawAcceptRateDefinition. */
public enum AcceptRateDefinition {
  /** Newer SGLang: accepted drafts / (cycles x (num_draft_tokens - 1)); already normalised. */
  ACCEPTED_OVER_DRAFTED("accepted_over_drafted"),
  /** Older SGLang (~Oct 2025): tokens incl. bonus / (cycles x (steps + 1)). */
  TOKENS_INCL_BONUS_OVER_CYCLES_X_STEPS_PLUS_1("tokens_incl_bonus_over_cycles_x_steps_plus_1");

  private final String id;

  AcceptRateDefinition(String id) {
    this.id = id;
  }

  /** Id recorded in DecodeEvent.rawAcceptRateDefinition. */
  public String id() {
    return id;
  }
}
