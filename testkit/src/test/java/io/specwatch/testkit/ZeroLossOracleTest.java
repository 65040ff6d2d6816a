package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.testkit.ZeroLossOracle.Expected;
import io.specwatch.testkit.ZeroLossOracle.Observed;
import io.specwatch.testkit.ZeroLossOracle.Report;
import io.specwatch.testkit.ZeroLossOracle.WindowKey;
import io.specwatch.testkit.ZeroLossOracle.WindowRow;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ZeroLossOracleTest {

  private static final WindowKey W1 = new WindowKey("d", "2026-01-01 00:00:00");
  private static final WindowKey W2 = new WindowKey("d", "2026-01-01 00:01:00");
  private static final WindowKey W3 = new WindowKey("d", "2026-01-01 00:02:00");
  private static final WindowKey OPEN = new WindowKey("d", "2026-01-01 02:00:00");

  private static final Expected EXPECTED =
      new Expected(
          Set.of("d"), Set.of("a", "b", "c"), Map.of(W1, 2L, W2, 1L), "2026-01-01 01:00:00");

  @Test
  void exactMatchIsCleanAndCollapsedReSendsAreNotDuplicates() {
    Report r =
        ZeroLossOracle.compare(
            EXPECTED,
            new Observed(
                Map.of("a", 2L, "b", 1L, "c", 1L),
                Set.of(),
                Map.of(
                    W1,
                    new WindowRow(1, 2, 2),
                    W2,
                    new WindowRow(1, 1, 1),
                    OPEN,
                    new WindowRow(1, 9, 9))));
    assertThat(r.clean()).as(r.details("t")).isTrue();
    assertThat(r.rowsOut()).isEqualTo(4);
    assertThat(r.distinctIdsOut()).isEqualTo(3);
    assertThat(r.windowsChecked()).isEqualTo(2);
    assertThat(r.summary("t")).contains("events in 3, rows out 4").endsWith("CLEAN");
  }

  @Test
  void reportsEveryKindOfFinding() {
    Report r =
        ZeroLossOracle.compare(
            EXPECTED,
            new Observed(
                Map.of("a", 1L, "b", 1L, "x", 1L),
                Set.of("b"),
                Map.of(W1, new WindowRow(2, 2, 3), W3, new WindowRow(1, 1, 1))));
    assertThat(r.clean()).isFalse();
    assertThat(r.lost()).containsExactly("c");
    assertThat(r.extra()).containsExactly("x");
    assertThat(r.duplicated()).containsExactly("b");
    assertThat(r.missingWindows()).containsExactly(W2);
    assertThat(r.duplicatedWindows()).containsExactly(W1);
    assertThat(r.wrongCountWindows()).containsOnlyKeys(W1);
    assertThat(r.wrongCountWindows().get(W1)).isEqualTo("expected 2 events, got 2..3");
    assertThat(r.overCountedEvents()).isEqualTo(1);
    assertThat(r.underCountedEvents()).isZero();
    assertThat(r.extraWindows()).containsExactly(W3);
    assertThat(r.summary("t")).endsWith("NOT CLEAN");
    assertThat(r.details("t")).contains("lost: c", "extra windows: d@2026-01-01 00:02:00");
  }
}
