package io.specwatch.sink.sqlcheck;

import static io.specwatch.sink.sqlcheck.Outcomes.rows;
import static io.specwatch.sink.sqlcheck.Rows.assertNumbers;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.finetune.FinetuneCriteria;
import io.specwatch.sink.finetune.FinetuneSelector;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The fine-tune selection queries of {@link SqlCompatibilityIT}, with their expected values. */
final class FinetuneCheck {

  private static final FinetuneCriteria FINETUNE =
      new FinetuneCriteria(
          Instant.parse("2026-03-14T00:00:00Z"),
          Instant.parse("2026-03-15T00:00:00Z"),
          Optional.of("kimi-eagle3"),
          Optional.empty(),
          Optional.empty(),
          32,
          10,
          1.0);

  private FinetuneCheck() {}

  /** Funnel, medians and candidates for the fixtures' day. */
  static List<Statement> statements(String db) {
    return List.of(
        Statement.query("finetune funnel", FinetuneSelector.funnelQuery(db, FINETUNE)),
        Statement.query("finetune medians", FinetuneSelector.mediansQuery(db, FINETUNE)),
        Statement.query("finetune candidates", FinetuneSelector.candidatesQuery(db, FINETUNE)));
  }

  static void check(String e, List<Outcome> outcomes) {
    assertNumbers(
        e + "finetune funnel",
        rows(outcomes, "finetune funnel").all().get(0),
        "requests",
        14,
        "too_short",
        1,
        "no_prompt",
        1,
        "eligible",
        12,
        "prompts",
        11);
    Rows medians = rows(outcomes, "finetune medians");
    assertNumbers(
        e + "medians", medians.row("category", "chat"), "median_tau", 2.2, "candidates", 5);
    assertNumbers(
        e + "medians", medians.row("category", "code"), "median_tau", 3.5, "candidates", 3);
    Rows candidates = rows(outcomes, "finetune candidates");
    assertThat(candidates.all())
        .extracting(r -> r.get("request_id"))
        .as(e + "finetune candidates, per category worst first")
        .containsExactly("r1", "r6", "r8", "r10");
    assertNumbers(
        e + "candidate",
        candidates.row("request_id", "r1"),
        "duplicates",
        2,
        "tau",
        1.2,
        "prompt_hash",
        "h1",
        "event_id",
        "e01",
        "finished_at",
        "2026-03-14 02:00:00",
        "accepted_tokens",
        20);
  }
}
