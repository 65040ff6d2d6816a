package io.specwatch.sink.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VerdictTest {

  @Test
  void theSeedsEagle3At60AgainstPlain82CostsThroughput() {
    // DOMAIN.md: tau 2.0, T_cyc ~30 ms, t_AR 12.2 ms -> tau* 2.46, S = 2.0 * 12.2 / 30 = 0.81
    Verdict v = Verdict.of(2.0 * 12.2 / 30, 2.0, 30 / 12.2, 60.0, 82.0);
    assertThat(v.kind()).isEqualTo(Verdict.Kind.BELOW_BASELINE);
    assertThat(v.text())
        .isEqualTo(
            "Speculation costs throughput: S 0.81 (60.0 vs 82.0 tok/s), \u03c4 2.00 < break-even"
                + " \u03c4* 2.46");
  }

  @Test
  void speedupOfOneOrMorePays() {
    Verdict v = Verdict.of(1.0, 2.46, 2.46, 82.0, 82.0);
    assertThat(v.kind()).isEqualTo(Verdict.Kind.ABOVE_BASELINE);
    assertThat(v.text())
        .isEqualTo(
            "Speculation pays: S 1.00 (82.0 vs 82.0 tok/s), \u03c4 2.46 \u2265 break-even"
                + " \u03c4* 2.46");
  }

  @Test
  void withoutBaselineTheVerdictIsUnknownButShowsTau() {
    Verdict v = Verdict.of(null, 1.0, null, null, null);
    assertThat(v.kind()).isEqualTo(Verdict.Kind.UNKNOWN);
    assertThat(v.text()).isEqualTo("No baseline measured: speedup unknown (\u03c4 1.00)");
  }

  @Test
  void missingTokSOrTauStarAreLeftOutNotPrintedAsNull() {
    assertThat(Verdict.of(0.5, null, null, null, null).text())
        .isEqualTo("Speculation costs throughput: S 0.50");
  }
}
