package io.specwatch.sink.sqlcheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import java.util.ArrayList;
import java.util.List;

/** Finding the outcome of a labelled statement, and checking that every statement ran. */
final class Outcomes {

  private Outcomes() {}

  static void assertAllOk(String engine, List<Outcome> outcomes) {
    List<String> failed = new ArrayList<>();
    for (Outcome o : outcomes) {
      if (!o.ok()) {
        failed.add(o.statement().label() + ": " + o.error() + "\n  SQL: " + o.statement().sql());
      }
    }
    assertThat(failed).as(engine + ": failed statements").isEmpty();
  }

  static Outcome outcome(List<Outcome> outcomes, String label) {
    return outcomes.stream()
        .filter(o -> o.statement().label().equals(label))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no outcome " + label));
  }

  static Rows rows(List<Outcome> outcomes, String label) {
    return new Rows(label, outcome(outcomes, label).text());
  }
}
