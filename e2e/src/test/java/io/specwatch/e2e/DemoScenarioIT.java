package io.specwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The story {@code ./specwatch demo} tells, on Testcontainers services instead of the local plain
 * processes: the generator's demo scenario (24 minutes of event time, replayed) is shipped,
 * windowed with alerts by streams-app and loaded into ClickHouse ({@link DemoPipeline}); the alerts
 * there must match manifest.json (raised for the below-baseline deployments, the collapse and the
 * NCCL regression; nothing for the within-noise shift, the baselines and the healthy deployments),
 * and each episode's accept length must be within tolerance of the manifest's truth, its speedup on
 * the right side of 1 (so every speculative deployment has a baseline: learned from its plain twin,
 * vLLM's included, or configured).
 */
class DemoScenarioIT {

  @Test
  void demoScenarioRaisesTheManifestsAlertsAndNoOthers() throws Exception {
    DemoPipeline demo = DemoPipeline.get();
    JsonNode manifest = demo.manifest;
    String database = demo.database;
    try (ClickHouseSql sql = new ClickHouseSql(demo.clickhouse)) {
      // 5. alerts in ClickHouse against the manifest
      Set<String> raised = new TreeSet<>();
      for (List<String> row :
          rows(
              sql,
              "SELECT DISTINCT deployment_id, type FROM "
                  + database
                  + ".alerts FINAL WHERE state = 'RAISED'")) {
        raised.add(row.get(0) + " " + row.get(1));
      }
      Set<String> expected = new TreeSet<>();
      Set<String> quiet = new HashSet<>();
      Set<String> loud = new HashSet<>();
      for (JsonNode e : manifest.path("episodes")) {
        String dep = e.path("deployment").asText();
        for (JsonNode a : e.path("expectedAlerts")) {
          expected.add(dep + " " + a.asText());
          loud.add(dep);
        }
        quiet.add(dep);
      }
      quiet.removeAll(loud);
      assertThat(raised).as("alerts raised").containsAll(expected);
      assertThat(quiet)
          .as("deployments whose episodes expect no alert")
          .contains("kimi-k25-baseline");
      List<String> unexpected = new ArrayList<>();
      for (String r : raised) {
        String dep = r.substring(0, r.indexOf(' '));
        if (quiet.contains(dep) && !r.endsWith(" NO_DATA")) {
          unexpected.add(r);
        }
      }
      assertThat(unexpected)
          .as("alerts on the within-noise / healthy / baseline deployments")
          .isEmpty();

      // 6. verdict numbers per episode against the manifest's truth
      for (JsonNode e : manifest.path("episodes")) {
        String type = e.path("type").asText();
        JsonNode truth = e.path("figures");
        if (!Set.of("HEALTHY", "SPEC_BELOW_BASELINE", "ACCEPT_COLLAPSE").contains(type)
            || !truth.has("tau")) {
          continue;
        }
        String dep = e.path("deployment").asText();
        List<List<String>> m =
            rows(
                sql,
                "SELECT sum(mean_accept_length * cycles) / sum(cycles),"
                    + " sumIf(speedup * cycles, speedup IS NOT NULL)"
                    + " / sumIf(cycles, speedup IS NOT NULL)"
                    + " FROM "
                    + database
                    + ".window_results FINAL WHERE deployment_id = '"
                    + dep
                    + "' AND prompt_category = '*' AND batch_bucket = '*' AND cycles > 0"
                    + " AND window_start >= parseDateTimeBestEffort('"
                    + e.path("from").asText()
                    + "') AND window_start < parseDateTimeBestEffort('"
                    + e.path("to").asText()
                    + "')");
        assertThat(m).as("windows of episode %s", e.path("id").asText()).hasSize(1);
        assertThat(m.get(0).get(1))
            .as("speedup of %s: a baseline (learned or configured) met its windows", dep)
            .isNotNull()
            .isNotEqualTo("\\N");
        double tau = Double.parseDouble(m.get(0).get(0));
        double speedup = Double.parseDouble(m.get(0).get(1));
        double trueTau = truth.path("tau").asDouble();
        assertThat(tau)
            .as("tau of %s (truth %s)", e.path("id").asText(), trueTau)
            .isBetween(trueTau * 0.93, trueTau * 1.07);
        if (type.equals("HEALTHY")) {
          assertThat(speedup).as("speedup of healthy %s", e.path("id").asText()).isGreaterThan(1);
        } else {
          assertThat(speedup).as("speedup of %s", e.path("id").asText()).isLessThan(1);
        }
      }
    }
  }

  /**
   * What the replay order of {@link DemoPipeline} guarantees, window by window: every speculative
   * total row was closed with its deployment's run context; a deployment with a plain twin meets
   * the twin's learned baseline in every window but its first (a learned entry must start before
   * the window: nothing precedes the first minute), one without a twin its configured t_AR in every
   * window. A run context that reaches streams-app after the events of its file breaks it ({@code
   * none:no-run-context}).
   */
  @Test
  void everySpeculativeWindowHasItsRunContextAndABaselineAfterTheFirstMinute() throws Exception {
    DemoPipeline demo = DemoPipeline.get();
    Map<String, String> twins = new TreeMap<>();
    demo.manifest
        .path("deployments")
        .forEach(
            d -> {
              if (!d.path("specMethod").asText().equalsIgnoreCase("none")) {
                twins.put(d.path("id").asText(), d.path("baseline").asText(""));
              }
            });
    assertThat(twins.values()).as("speculative deployments without a twin").contains("");
    assertThat(twins.values()).as("speculative deployments with one").anyMatch(t -> !t.isEmpty());
    try (ClickHouseSql sql = new ClickHouseSql(demo.clickhouse)) {
      Map<String, List<String>> seen = new TreeMap<>();
      for (List<String> r :
          rows(
              sql,
              "SELECT deployment_id, count(), min(window_start),"
                  + " countIf(run_context_id IS NULL),"
                  + " countIf(baseline_source LIKE 'learned:%'),"
                  + " countIf(baseline_source = 'static'),"
                  + " maxIf(window_start, NOT (baseline_source LIKE 'learned:%'))"
                  + " <= min(window_start)"
                  + " FROM "
                  + demo.database
                  + ".window_results FINAL WHERE spec_enabled = 1 AND prompt_category = '*'"
                  + " AND batch_bucket = '*' AND cycles > 0 GROUP BY deployment_id")) {
        seen.put(r.get(0), r.subList(1, r.size()));
      }
      assertThat(seen.keySet())
          .as("deployments with speculative windows")
          .isEqualTo(twins.keySet());
      twins.forEach(
          (dep, twin) -> {
            List<String> r = seen.get(dep);
            long windows = Long.parseLong(r.get(0));
            assertThat(windows).as("speculative windows of %s", dep).isGreaterThan(15);
            assertThat(Long.parseLong(r.get(2)))
                .as("windows of %s closed without a run context (%s)", dep, r)
                .isZero();
            if (twin.isEmpty()) {
              assertThat(Long.parseLong(r.get(4)))
                  .as("windows of %s with the configured baseline (%s)", dep, r)
                  .isEqualTo(windows);
            } else {
              assertThat(Long.parseLong(r.get(3)))
                  .as("windows of %s with %s's learned baseline (%s)", dep, twin, r)
                  .isBetween(windows - 1, windows);
              assertThat(r.get(5))
                  .as("%s: only its first window lacks the learned baseline (%s)", dep, r)
                  .isEqualTo("1");
            }
          });
    }
  }

  private static List<List<String>> rows(ClickHouseSql sql, String select) {
    return DemoPipeline.rows(sql, select);
  }

  @Test
  void theVllmEagle3DeploymentMeetsTheBaselineItsPlainVllmTwinTaught() throws Exception {
    DemoPipeline demo = DemoPipeline.get();
    try (ClickHouseSql sql = new ClickHouseSql(demo.clickhouse)) {
      // the plain vLLM V1 twin prints only Engine lines: its step time comes from them
      List<List<String>> plain =
          rows(
              sql,
              "SELECT count(), min(mean_cycle_ms), max(mean_cycle_ms) FROM "
                  + demo.database
                  + ".window_results FINAL WHERE deployment_id = 'llama31-8b-baseline-h100'"
                  + " AND prompt_category = '*' AND batch_bucket = '*' AND mean_cycle_ms > 0");
      assertThat(Long.parseLong(plain.get(0).get(0)))
          .as("plain windows with t_AR")
          .isGreaterThan(15);
      // the generator's plain Llama-8B step is 6.33 ms at batch 1, a little more at batch 4-8
      assertThat(Double.parseDouble(plain.get(0).get(1))).isBetween(5.0, 9.0);
      assertThat(Double.parseDouble(plain.get(0).get(2))).isBetween(5.0, 9.0);
      List<List<String>> spec =
          rows(
              sql,
              "SELECT countIf(baseline_source LIKE 'learned:llama31-8b-baseline-h100@%'), count(),"
                  + " sumIf(speedup * cycles, speedup IS NOT NULL)"
                  + " / sumIf(cycles, speedup IS NOT NULL) FROM "
                  + demo.database
                  + ".window_results FINAL WHERE deployment_id = 'llama31-8b-eagle3-h100'"
                  + " AND spec_enabled = 1 AND prompt_category = '*' AND batch_bucket = '*'"
                  + " AND cycles > 0");
      long learned = Long.parseLong(spec.get(0).get(0));
      long windows = Long.parseLong(spec.get(0).get(1));
      assertThat(learned).as("EAGLE-3 windows with the twin's learned baseline").isPositive();
      assertThat(learned).as("all but the first windows").isGreaterThanOrEqualTo(windows - 3);
      // manifest truth: tau ~3.1, ~2.3x the plain 158 tok/s
      assertThat(Double.parseDouble(spec.get(0).get(2))).as("speedup").isBetween(1.6, 3.2);
    }
  }
}
