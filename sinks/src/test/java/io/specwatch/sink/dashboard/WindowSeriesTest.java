package io.specwatch.sink.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowSeriesTest {

  /** A slice with tau, tau*, effective, baseline, speedup and verify p50; other metrics null. */
  private static SliceRow slice(
      long t, long cycles, Double tau, Double speedup, Double verifyP50, List<Double> pp) {
    Double[] m = new Double[SliceRow.METRICS.size()];
    m[0] = tau;
    m[1] = 2.5;
    m[2] = tau == null ? null : tau * 30;
    m[3] = 82.0;
    m[4] = speedup;
    m[8] = verifyP50;
    return new SliceRow(t, "c" + cycles, "1", true, cycles, cycles / 10, 0, m, pp);
  }

  @Test
  void mergesSlicesOfAWindowCycleWeightedSkippingNulls() {
    List<WindowPoint> points =
        WindowSeries.points(
            List.of(
                slice(60, 300, 2.0, 0.7, 29.0, List.of(0.6, 0.4)),
                slice(60, 100, 3.0, 1.1, null, List.of(0.9)),
                slice(120, 50, null, null, null, List.of())));
    assertThat(points).hasSize(2);
    WindowPoint w = points.get(0);
    assertThat(w.t()).isEqualTo(60);
    assertThat(w.cycles()).isEqualTo(400);
    assertThat(w.tau()).isCloseTo(2.25, offset(1e-12));
    assertThat(w.speedup()).isCloseTo(0.8, offset(1e-12));
    // only the slice that has it counts
    assertThat(w.verifyMsP50()).isEqualTo(29.0);
    assertThat(w.draftMsP50()).isNull();
    // position 2 only from the slice that reaches it
    assertThat(w.perPosition().get(0)).isCloseTo((0.6 * 300 + 0.9 * 100) / 400, offset(1e-12));
    assertThat(w.perPosition().get(1)).isCloseTo(0.4, offset(1e-12));
    WindowPoint empty = points.get(1);
    assertThat(empty.tau()).isNull();
    assertThat(empty.perPosition()).isEmpty();
  }

  @Test
  void summaryWeighsTheRangeAndTakesPerPositionOfTheLastWindowThatHasIt() {
    WindowSeries.Summary s =
        WindowSeries.summary(
            List.of(
                slice(60, 100, 2.0, 0.75, 19.0, List.of(0.6, 0.4)),
                slice(120, 300, 2.0, 0.7, 29.0, List.of(0.6, 0.4)),
                slice(120, 100, 3.0, 1.1, 19.0, List.of(0.9, 0.8)),
                slice(180, 10, null, null, null, List.of())));
    assertThat(s.windows()).isEqualTo(3);
    assertThat(s.cycles()).isEqualTo(510);
    assertThat(s.tau()).isCloseTo(2.2, offset(1e-12));
    assertThat(s.speedup()).isCloseTo(0.79, offset(1e-12));
    assertThat(s.verdict().kind()).isEqualTo(Verdict.Kind.BELOW_BASELINE);
    assertThat(s.perPositionRange().get(0)).isCloseTo(0.66, offset(1e-12));
    assertThat(s.perPositionLatest().get(0)).isCloseTo(0.675, offset(1e-12));
    assertThat(s.perPositionLatest().get(1)).isCloseTo(0.5, offset(1e-12));
  }

  private static SliceRow row(String category, String bucket, boolean spec, long cycles) {
    return new SliceRow(
        60, category, bucket, spec, cycles, 1, 0, new Double[SliceRow.METRICS.size()], List.of());
  }

  @Test
  void aWindowIsRepresentedByTheTotalRowOfItsSpeculativeSide() {
    SliceRow total = row("*", "*", true, 400);
    SliceRow chat = row("chat", "*", true, 300);
    SliceRow bucket = row("*", "1", true, 400);
    SliceRow plainTotal = row("*", "*", false, 50);
    assertThat(WindowSeries.representative(List.of(chat, total, bucket, plainTotal)))
        .containsExactly(total);
    // no total row: the breakdown rows are all there is, merged
    assertThat(WindowSeries.representative(List.of(chat, row("code", "*", true, 100)))).hasSize(2);
    // a window of plain decoding only: its own total
    assertThat(WindowSeries.representative(List.of(plainTotal, row("*", "1", false, 50))))
        .containsExactly(plainTotal);
    assertThat(WindowSeries.points(List.of(chat, total, bucket)).get(0).cycles()).isEqualTo(400);
  }

  @Test
  void emptyRangeHasNoFiguresAndAnUnknownVerdict() {
    WindowSeries.Summary s = WindowSeries.summary(List.of());
    assertThat(s.windows()).isZero();
    assertThat(s.tau()).isNull();
    assertThat(s.verdict().kind()).isEqualTo(Verdict.Kind.UNKNOWN);
    assertThat(s.verdict().text()).isEqualTo("No baseline measured: speedup unknown");
  }
}
