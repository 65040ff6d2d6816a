package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.AlertFixtures.minute;
import static io.specwatch.streams.alert.AlertFixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.streams.TopologyNames;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC_BELOW_BASELINE and ACCEPT_COLLAPSE raise/clear sequences with hysteresis and min cycles, on
 * the alert topology with hand-computed windows. Seeds' numbers: tau 2.0, T_cyc 30 ms, t_AR 12.2 ms
 * -> S = 2.0 * 12.2 / 30 = 0.8133, tau* = 30 / 12.2 = 2.459.
 */
class ThresholdAlertsTest {
  private static final double T_AR = 12.2;

  @TempDir Path stateDir;
  private AlertFixtures f;

  @AfterEach
  void tearDown() {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void belowBaselineRaisesAfterThreeConclusiveBreachesAndClearsAfterTwoHealthyInARow() {
    f = new AlertFixtures(stateDir, AlertFixtures.config(3, 2, 100));
    f.send(window("kimi", 0, 2000, 2.0, 30.0, 26.0, T_AR).build()); // breach 1, S 0.8133
    f.send(window("kimi", 1, 2000, 2.0, 30.0, 26.0, T_AR).build()); // breach 2
    f.send(window("kimi", 2, 99, 1.5, 30.0, 26.0, T_AR).build()); // 99 < 100 cycles: neutral
    assertThat(f.read()).as("two conclusive breaches and a thin window raise nothing").isEmpty();
    f.send(window("kimi", 3, 2000, 2.0, 30.0, 26.0, T_AR).build()); // breach 3 -> RAISE

    List<Alert> raised = f.read();
    assertThat(raised).hasSize(1);
    Alert a = raised.get(0);
    assertThat(a.getType()).isEqualTo(AlertType.SPEC_BELOW_BASELINE);
    assertThat(a.getState()).isEqualTo(AlertState.RAISED);
    assertThat(a.getDeploymentId()).isEqualTo("kimi");
    assertThat(a.getWindowStart()).isEqualTo(minute(3));
    assertThat(a.getEmittedAt()).isEqualTo(minute(4));
    assertThat(a.getMetric()).isEqualTo("speedup");
    assertThat(a.getObserved()).isCloseTo(0.81333, within(1e-4));
    assertThat(a.getReference()).isEqualTo(1.0);
    assertThat(a.getAlertId())
        .isEqualTo(
            Alerts.alertId(
                "kimi", AlertType.SPEC_BELOW_BASELINE, AlertState.RAISED, minute(3).toEpochMilli()))
        .hasSize(32);
    assertThat(a.getEvidence())
        .containsEntry("breachWindows", "3")
        .containsEntry("streakStart", minute(0).toString())
        .containsEntry("tau", "2")
        .containsEntry("tauStar", "2.45902")
        .containsEntry("speedup", "0.813333")
        .containsEntry("baselineStepMs", "12.2")
        .containsEntry("cycles", "2000")
        .containsEntry("minCycles", "100");
    assertThat(a.getMessage()).contains("S=0.813").contains("tau* 2.45902");

    f.send(window("kimi", 4, 2000, 2.6, 30.0, 26.0, T_AR).build()); // healthy 1: S 1.0573
    f.send(window("kimi", 5, 2000, 2.0, 30.0, 26.0, T_AR).build()); // breach: healthy streak reset
    f.send(window("kimi", 6, 2000, 2.6, 30.0, 26.0, T_AR).build()); // healthy 1
    assertThat(f.read()).as("raised alerts are not raised again; one healthy window").isEmpty();
    f.send(window("kimi", 7, 50, 2.6, 30.0, 26.0, T_AR).build()); // thin: neutral
    f.send(window("kimi", 8, 2000, 3.0, 30.0, 26.0, T_AR).build()); // healthy 2 -> CLEAR

    List<Alert> cleared = f.read();
    assertThat(cleared).hasSize(1);
    Alert c = cleared.get(0);
    assertThat(c.getType()).isEqualTo(AlertType.SPEC_BELOW_BASELINE);
    assertThat(c.getState()).isEqualTo(AlertState.CLEARED);
    assertThat(c.getWindowStart()).isEqualTo(minute(8));
    assertThat(c.getObserved()).isCloseTo(3.0 * 12.2 / 30.0, within(1e-9));
    assertThat(c.getEvidence()).containsEntry("healthyWindows", "2");
    assertThat(c.getAlertId()).isNotEqualTo(a.getAlertId());

    assertThat(metric("alerts-raised-total")).isEqualTo(1.0);
    assertThat(metric("alerts-cleared-total")).isEqualTo(1.0);

    Hysteresis.State stored =
        f.driver
            .<String, Hysteresis.State>getKeyValueStore(TopologyNames.ALERT_HYSTERESIS_STORE)
            .get("kimi|SPEC_BELOW_BASELINE");
    assertThat(stored).isEqualTo(new Hysteresis.State(false, 0, 2, minute(6).toEpochMilli()));
  }

  @Test
  void windowsWithoutBaselineNeverRaiseBelowBaseline() {
    f = new AlertFixtures(stateDir, AlertFixtures.config(2, 2, 100));
    for (int i = 0; i < 5; i++) {
      f.send(window("kimi", i, 2000, 2.0, 30.0, 26.0, null).build()); // speedup null
    }
    assertThat(f.read()).isEmpty();
  }

  @Test
  void acceptCollapseRaisesOnTauOneAndClearsWhenTheDrafterIsBack() {
    f = new AlertFixtures(stateDir, AlertFixtures.config(3, 3, 200));
    // EAGLE instead of EAGLE3: tau 1.00, nothing accepted; speedup unknown (no baseline)
    for (int i = 0; i < 2; i++) {
      f.send(window("kimi", i, 900, 1.0, 25.0, 24.0, null).setAcceptedTokens(0).build());
    }
    f.send(window("kimi", 2, 150, 1.0, 25.0, 24.0, null).build()); // below 200 cycles: neutral
    f.send(window("kimi", 3, 900, 1.04, 25.0, 24.0, null).build()); // <= 1.05: breach 3
    List<Alert> raised = f.read();
    assertThat(raised)
        .extracting(Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertType.ACCEPT_COLLAPSE, AlertState.RAISED, minute(3)));
    assertThat(raised.get(0).getObserved()).isEqualTo(1.04);
    assertThat(raised.get(0).getReference()).isEqualTo(1.05);
    assertThat(raised.get(0).getEvidence())
        .containsEntry("breachWindows", "3")
        .containsEntry("streakStart", minute(0).toString());

    f.send(window("kimi", 4, 900, 2.0, 30.0, 26.0, null).build());
    f.send(window("kimi", 5, 900, 2.1, 30.0, 26.0, null).build());
    assertThat(f.read()).isEmpty();
    f.send(window("kimi", 6, 900, 1.9, 30.0, 26.0, null).build());
    assertThat(f.read())
        .extracting(Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertType.ACCEPT_COLLAPSE, AlertState.CLEARED, minute(6)));
  }

  @Test
  void onlyDeploymentTotalsOfSpeculativeDeploymentsAreEvaluated() {
    f = new AlertFixtures(stateDir, AlertFixtures.config(1, 1, 0));
    f.send(window("kimi", 0, 900, 1.0, 25.0, 24.0, null).setPromptCategory("chat").build());
    f.send(window("kimi", 1, 900, 1.0, 25.0, 24.0, null).setBatchBucket("2-4").build());
    f.send(window("plain", 2, 900, 1.0, 12.2, 12.2, null).setSpecEnabled(false).build());
    assertThat(f.read()).isEmpty();
    f.send(window("kimi", 3, 900, 1.0, 25.0, 24.0, null).build());
    assertThat(f.read()).extracting(Alert::getType).containsExactly(AlertType.ACCEPT_COLLAPSE);
  }

  @Test
  void aWindowArrivingAfterANewerOneIsSkippedByTheRulesAndCounted() {
    f = new AlertFixtures(stateDir, AlertFixtures.config(3, 2, 100));
    f.send(window("kimi", 0, 2000, 2.0, 30.0, 26.0, T_AR).build()); // breach 1
    f.send(window("kimi", 1, 2000, 2.0, 30.0, 26.0, T_AR).build()); // breach 2
    f.send(window("kimi", 3, 2000, 2.0, 30.0, 26.0, T_AR).build()); // breach 3 (2 not here yet)
    assertThat(f.read())
        .extracting(Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertState.RAISED, minute(3)));
    // window 2 overtaken on the way, then window 3 again: both older than the newest evaluated
    f.send(window("kimi", 2, 2000, 3.0, 30.0, 26.0, T_AR).build()); // healthy, but late
    f.send(window("kimi", 3, 2000, 3.0, 30.0, 26.0, T_AR).build());
    f.send(window("kimi", 4, 2000, 3.0, 30.0, 26.0, T_AR).build()); // healthy 1
    assertThat(f.read()).as("the skipped windows are no healthy streak").isEmpty();
    assertThat(metric("alert-windows-out-of-order-total")).isEqualTo(2.0);
    f.send(window("kimi", 5, 2000, 3.0, 30.0, 26.0, T_AR).build()); // healthy 2 -> CLEAR
    assertThat(f.read())
        .extracting(Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertState.CLEARED, minute(5)));
    // another deployment's older window is not out of order
    f.send(window("other", 0, 2000, 3.0, 30.0, 26.0, T_AR).build());
    assertThat(metric("alert-windows-out-of-order-total")).isEqualTo(2.0);
  }

  private double metric(String name) {
    return f.driver.metrics().entrySet().stream()
        .filter(
            e ->
                e.getKey().name().equals(name)
                    && e.getKey().group().equals("stream-specwatch-metrics"))
        .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
        .sum();
  }
}
