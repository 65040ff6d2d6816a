package io.specwatch.sink.finetune;

import java.util.List;
import java.util.Map;

/**
 * The result: selected prompts in selection order with their rank in their category, per-category
 * statistics, and what the filters removed.
 */
public record Selection(
    List<Selected> selected, Map<String, CategoryStats> categories, Funnel funnel) {

  /** A selected candidate and its rank among the category's candidates (1 = worst). */
  public record Selected(Candidate candidate, int rankInCategory) {

    /** Why it was selected, for the export's {@code why} field. */
    public String why() {
      Candidate c = candidate;
      return String.format(
          java.util.Locale.ROOT,
          "tau %.2f is %.2fx the '%s' median %.2f (worst %d of %d prompts there)%s",
          c.tau(),
          c.relativeTau(),
          c.category(),
          c.categoryMedianTau(),
          rankInCategory,
          c.categoryCandidates(),
          c.duplicates() > 1
              ? "; " + c.duplicates() + " requests with this prompt, the lowest tau kept"
              : "");
    }
  }

  /** Per category: candidate prompts, their median tau, how many were below the cut and chosen. */
  public record CategoryStats(
      String category, long candidates, double medianTau, int belowCut, int selected) {}

  /** Requests in range after the deployment/model/version filters, and what removed the rest. */
  public record Funnel(
      long requests, long tooShort, long noPrompt, long duplicatesMerged, long prompts) {}
}
