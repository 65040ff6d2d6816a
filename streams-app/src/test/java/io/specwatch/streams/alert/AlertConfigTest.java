package io.specwatch.streams.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlertConfigTest {

  private static AlertConfig with(int index, Object value) {
    AlertConfig d = AlertConfig.defaults();
    Object[] a = {
      d.raiseWindows(), d.clearWindows(), d.minCycles(), d.belowBaselineSpeedup(),
      d.collapseAcceptLength(), d.noDataSilence(), d.noDataCheckInterval(), d.referenceWindows(),
      d.minReferenceWindows(), d.recentWindows(), d.confidence(), d.minEffect(),
      d.minShiftSds(), d.rebaselineWindows(), d.partitions()
    };
    a[index] = value;
    return new AlertConfig(
        (int) a[0],
        (int) a[1],
        (long) a[2],
        (double) a[3],
        (double) a[4],
        (Duration) a[5],
        (Duration) a[6],
        (int) a[7],
        (int) a[8],
        (int) a[9],
        (double) a[10],
        (double) a[11],
        (double) a[12],
        (int) a[13],
        (int) a[14]);
  }

  @Test
  void defaultsAreValid() {
    AlertConfig d = AlertConfig.defaults();
    assertThat(d.alpha()).isEqualTo(1 - 0.99);
    assertThat(d.raiseWindows()).isEqualTo(3);
    assertThat(d.minShiftSds()).isEqualTo(1.5);
  }

  @Test
  void everyBadSettingIsNamed() {
    List<Object[]> cases =
        List.of(
            new Object[] {0, 0, "alert-raise-windows"},
            new Object[] {1, 0, "alert-clear-windows"},
            new Object[] {2, -1L, "alert-min-cycles"},
            new Object[] {3, 0.0, "alert-below-baseline-speedup"},
            new Object[] {4, 0.9, "alert-collapse-accept-length"},
            new Object[] {5, Duration.ZERO, "alert-no-data-silence"},
            new Object[] {6, Duration.ofSeconds(-1), "alert-no-data-check-interval"},
            new Object[] {7, 5, "alert-regression-reference-windows"},
            new Object[] {8, 1, "alert-regression-min-reference-windows"},
            new Object[] {9, 1, "alert-regression-recent-windows"},
            new Object[] {10, 1.0, "alert-regression-confidence"},
            new Object[] {11, Double.NaN, "alert-regression-min-effect"},
            new Object[] {12, -0.5, "alert-regression-min-shift-sds"},
            new Object[] {12, Double.POSITIVE_INFINITY, "alert-regression-min-shift-sds"},
            new Object[] {13, -1, "alert-regression-rebaseline-windows"},
            new Object[] {14, 0, "alert-partitions"});
    for (Object[] c : cases) {
      assertThatThrownBy(() -> with((int) c[0], c[1]))
          .as("setting %s", c[2])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith((String) c[2]);
    }
  }

  @Test
  void alertIdIsDeterministicAndDependsOnEveryPart() {
    String id = Alerts.alertId("kimi", AlertType.REGRESSION, AlertState.RAISED, 60_000L);
    assertThat(id)
        .hasSize(32)
        .matches("[0-9a-f]{32}")
        .isEqualTo(Alerts.alertId("kimi", AlertType.REGRESSION, AlertState.RAISED, 60_000L));
    assertThat(id)
        .isNotEqualTo(Alerts.alertId("kimi2", AlertType.REGRESSION, AlertState.RAISED, 60_000L))
        .isNotEqualTo(Alerts.alertId("kimi", AlertType.NO_DATA, AlertState.RAISED, 60_000L))
        .isNotEqualTo(Alerts.alertId("kimi", AlertType.REGRESSION, AlertState.CLEARED, 60_000L))
        .isNotEqualTo(Alerts.alertId("kimi", AlertType.REGRESSION, AlertState.RAISED, 0L));
  }

  @Test
  void evidenceNumbersAreShort() {
    assertThat(Alerts.num(2.0)).isEqualTo("2");
    assertThat(Alerts.num(30.0 / 12.2)).isEqualTo("2.45902");
    assertThat(Alerts.num(1.5e-12)).isEqualTo("1.5e-12");
    assertThat(Alerts.num(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
  }
}
