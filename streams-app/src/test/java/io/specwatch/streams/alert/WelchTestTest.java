package io.specwatch.streams.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.apache.commons.math3.stat.inference.TTest;
import org.junit.jupiter.api.Test;

/** Welch's test against values worked out by hand and against commons-math's TTest. */
class WelchTestTest {

  @Test
  void handComputedExample() {
    // reference 1..5: mean 3, var 2.5; recent 3..7: mean 5, var 2.5
    // se = sqrt(2.5/5 + 2.5/5) = 1, t = (5 - 3) / 1 = 2
    // df = (0.5 + 0.5)^2 / (0.5^2/4 + 0.5^2/4) = 1 / 0.125 = 8
    // two-sided p for t = 2, df = 8: 0.08051623 (Student's t table: between 0.05 and 0.10)
    WelchTest w = WelchTest.of(new double[] {1, 2, 3, 4, 5}, new double[] {3, 4, 5, 6, 7});
    assertThat(w.referenceMean()).isEqualTo(3.0);
    assertThat(w.recentMean()).isEqualTo(5.0);
    assertThat(w.referenceSd()).isCloseTo(Math.sqrt(2.5), within(1e-12));
    assertThat(w.t()).isCloseTo(2.0, within(1e-12));
    assertThat(w.df()).isCloseTo(8.0, within(1e-12));
    assertThat(w.p()).isCloseTo(0.08051623, within(1e-7));
    assertThat(w.relativeEffect()).isCloseTo(2.0 / 3.0, within(1e-12));
  }

  @Test
  void unequalVariancesMatchCommonsMath() {
    // seeds: verify 19 ms (+-0.3) before, 29 ms (+-0.02) after
    double[] ref = {19.0, 19.3, 18.8, 19.1, 18.7, 19.2, 18.9, 19.0, 19.3, 18.8};
    double[] rec = {28.95, 28.97, 28.93, 28.96, 28.94};
    WelchTest w = WelchTest.of(ref, rec);
    TTest tt = new TTest();
    assertThat(w.t()).isCloseTo(tt.t(rec, ref), within(1e-9));
    assertThat(w.p()).isCloseTo(tt.tTest(rec, ref), within(1e-12));
    assertThat(w.p()).isLessThan(1e-12);
    // hand: mean ref 19.01, mean recent 28.95
    assertThat(w.referenceMean()).isCloseTo(19.01, within(1e-9));
    assertThat(w.recentMean()).isCloseTo(28.95, within(1e-9));
  }

  @Test
  void zeroVarianceDegeneratesToCertainty() {
    WelchTest same = WelchTest.of(new double[] {2, 2, 2}, new double[] {2, 2});
    assertThat(same.p()).isEqualTo(1.0);
    assertThat(same.t()).isEqualTo(0.0);
    WelchTest moved = WelchTest.of(new double[] {2, 2, 2}, new double[] {3, 3});
    assertThat(moved.p()).isEqualTo(0.0);
    assertThat(moved.t()).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void needsTwoValuesPerSample() {
    assertThatThrownBy(() -> WelchTest.of(new double[] {1}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two values");
  }
}
