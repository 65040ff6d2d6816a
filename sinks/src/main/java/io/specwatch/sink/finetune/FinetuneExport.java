package io.specwatch.sink.finetune;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.specwatch.sink.TextTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes a {@link Selection} as JSON lines (one selected request each) and a summary table. */
public final class FinetuneExport {

  private static final JsonFactory JSON = new JsonFactory();

  private FinetuneExport() {}

  /**
   * One JSON object per line: request_id, event_id, deployment_id, prompt_hash, prompt_ref,
   * prompt_category, model, draft_model_version, finished_at, tau, category_median_tau,
   * relative_tau, output_tokens, verify_cycles, accepted_tokens, drafted_tokens,
   * requests_with_prompt, rank_in_category, why. Unknown values are null.
   */
  public static void writeJsonLines(Selection selection, OutputStream out) {
    try {
      for (Selection.Selected s : selection.selected()) {
        Candidate c = s.candidate();
        JsonGenerator g = JSON.createGenerator(out);
        g.writeStartObject();
        g.writeStringField("request_id", c.requestId());
        g.writeStringField("event_id", c.eventId());
        g.writeStringField("deployment_id", c.deploymentId());
        g.writeStringField("prompt_hash", c.promptHash());
        g.writeStringField("prompt_ref", c.promptRef());
        g.writeStringField("prompt_category", c.category().isEmpty() ? null : c.category());
        g.writeStringField("model", c.model());
        g.writeStringField("draft_model_version", c.draftModelVersion());
        g.writeStringField("finished_at", c.finishedAt());
        g.writeNumberField("tau", c.tau());
        g.writeNumberField("category_median_tau", c.categoryMedianTau());
        g.writeNumberField("relative_tau", round(c.relativeTau()));
        g.writeNumberField("output_tokens", c.outputTokens());
        g.writeNumberField("verify_cycles", c.verifyCycles());
        writeCount(g, "accepted_tokens", c.acceptedTokens());
        writeCount(g, "drafted_tokens", c.draftedTokens());
        g.writeNumberField("requests_with_prompt", c.duplicates());
        g.writeNumberField("rank_in_category", s.rankInCategory());
        g.writeStringField("why", s.why());
        g.writeEndObject();
        g.flush();
        out.write('\n');
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the selection", e);
    }
  }

  private static void writeCount(JsonGenerator g, String name, long value) throws IOException {
    if (value < 0) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, value);
    }
  }

  private static double round(double v) {
    return Math.round(v * 10000.0) / 10000.0;
  }

  /** Summary: the funnel, then per category candidates, median, below the cut, selected. */
  public static String summary(Selection selection) {
    Selection.Funnel f = selection.funnel();
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%d requests in range; %d too short, %d without prompt hash or reference,"
                + " %d duplicates of a prompt merged -> %d candidate prompts; %d selected%n",
            f.requests(),
            f.tooShort(),
            f.noPrompt(),
            f.duplicatesMerged(),
            f.prompts(),
            selection.selected().size()));
    List<List<String>> rows = new ArrayList<>();
    rows.add(
        List.of("category", "prompts", "median_tau", "below_cut", "selected", "selected_mean_tau"));
    for (Selection.CategoryStats s : selection.categories().values()) {
      double mean =
          selection.selected().stream()
              .filter(x -> x.candidate().category().equals(s.category()))
              .mapToDouble(x -> x.candidate().tau())
              .average()
              .orElse(Double.NaN);
      rows.add(
          List.of(
              s.category().isEmpty() ? "(none)" : s.category(),
              Long.toString(s.candidates()),
              String.format(Locale.ROOT, "%.3f", s.medianTau()),
              Integer.toString(s.belowCut()),
              Integer.toString(s.selected()),
              Double.isNaN(mean) ? "-" : String.format(Locale.ROOT, "%.3f", mean)));
    }
    out.append(TextTable.format(rows));
    return out.toString();
  }
}
