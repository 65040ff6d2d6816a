package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class WindowAccumulatorTest {

  @Test
  void perPositionSumsCountsAndSharesTimesCycles() {
    WindowAccumulator a =
        WindowAccumulator.empty()
            // shares x 40 cycles -> 20, 10, 4
            .add(
                event("d", 1)
                    .setCycles(40L)
                    .setPerPositionAcceptance(List.of(0.5, 0.25, 0.1))
                    .build())
            // counts win over shares -> 8, 6
            .add(
                event("d", 2)
                    .setCycles(10L)
                    .setPerPositionAccepted(List.of(8L, 6L))
                    .setPerPositionAcceptance(List.of(0.9, 0.9))
                    .build())
            // one cycle event accepting all four positions
            .add(
                event("d", 3).setCycles(1L).setPerPositionAccepted(List.of(1L, 1L, 1L, 1L)).build())
            // no per-position data: not in the denominator
            .add(event("d", 4).setCycles(5L).build());
    // sums [29, 17, 5, 1] over 51 cycles
    WindowResult r = a.toResult("d", 0, 60_000);
    assertThat(r.getCycles()).isEqualTo(56);
    assertThat(r.getPerPositionAcceptance())
        .containsExactly(29.0 / 51, 17.0 / 51, 5.0 / 51, 1.0 / 51);
    assertThat(r.getPerPositionConditional())
        .containsExactly(29.0 / 51, 17.0 / 29, 5.0 / 17, 1.0 / 5);
  }

  @Test
  void perPositionIsEmptyWithoutDataAndConditionalIsZeroAfterAZeroPosition() {
    assertThat(WindowAccumulator.empty().add(event("d", 1).build()).perPositionAcceptance())
        .isEmpty();
    WindowAccumulator a =
        WindowAccumulator.empty()
            .add(event("d", 1).setCycles(4L).setPerPositionAccepted(List.of(2L, 0L, 0L)).build());
    assertThat(a.perPositionAcceptance()).containsExactly(0.5, 0.0, 0.0);
    assertThat(a.perPositionConditional()).containsExactly(0.5, 0.0, 0.0);
  }

  @Test
  void smallWindowsGiveCycleWeightedPercentilesWithinOnePercent() {
    WindowAccumulator a =
        WindowAccumulator.empty()
            .add(timed(1, 40, 2.0, 30.0, 5.0, 20.0))
            .add(timed(2, 120, 3.0, 20.0, 4.0, 14.0))
            .add(timed(3, 1, 6.0, 90.0, 9.0, 70.0));
    WindowResult r = a.toResult("d", 0, 60_000);
    // cycleMs: 20 x120, 30 x40, 90 x1 of 161 -> p50 20, p95 (rank 152.95) 30, p99 (159.39) 30
    assertThat(r.getCycleMsP50()).isCloseTo(20.0, ExactQuantiles.BOUND);
    assertThat(r.getCycleMsP95()).isCloseTo(30.0, ExactQuantiles.BOUND);
    assertThat(r.getCycleMsP99()).isCloseTo(30.0, ExactQuantiles.BOUND);
    assertThat(r.getDraftMsP50()).isCloseTo(4.0, ExactQuantiles.BOUND);
    assertThat(r.getDraftMsP95()).isCloseTo(5.0, ExactQuantiles.BOUND);
    assertThat(r.getVerifyMsP99()).isCloseTo(20.0, ExactQuantiles.BOUND);
    assertThat(r.getAcceptLengthP50()).isCloseTo(3.0, ExactQuantiles.BOUND);
    assertThat(r.getAcceptLengthP95()).isCloseTo(3.0, ExactQuantiles.BOUND);
    assertThat(WindowAccumulator.empty().toResult("d", 0, 1).getCycleMsP50()).isNull();
  }

  @Test
  void largeWindowsStayWithinTheStatedRelativeError() {
    Random random = new Random(42);
    WindowAccumulator a = WindowAccumulator.empty();
    ExactQuantiles draft = new ExactQuantiles();
    ExactQuantiles verify = new ExactQuantiles();
    ExactQuantiles cycle = new ExactQuantiles();
    ExactQuantiles tau = new ExactQuantiles();
    for (int i = 0; i < 20_000; i++) {
      long cycles = 1 + random.nextInt(60);
      double d = 2 + 3 * random.nextDouble();
      double v = 15 + Math.abs(random.nextGaussian()) * 6 + (random.nextInt(100) == 0 ? 50 : 0);
      double t = 1 + 3 * random.nextDouble();
      a.add(timed(i % 60, cycles, t, d + v + 1, d, v));
      draft.add(d, cycles);
      verify.add(v, cycles);
      cycle.add(d + v + 1, cycles);
      tau.add(t, cycles);
    }
    WindowResult r = a.toResult("d", 0, 60_000);
    assertThat(WeightedQuantiles.RELATIVE_ACCURACY).isEqualTo(0.01);
    draft.assertWithinBound(r.getDraftMsP50(), 0.50);
    draft.assertWithinBound(r.getDraftMsP95(), 0.95);
    draft.assertWithinBound(r.getDraftMsP99(), 0.99);
    verify.assertWithinBound(r.getVerifyMsP50(), 0.50);
    verify.assertWithinBound(r.getVerifyMsP95(), 0.95);
    verify.assertWithinBound(r.getVerifyMsP99(), 0.99);
    cycle.assertWithinBound(r.getCycleMsP50(), 0.50);
    cycle.assertWithinBound(r.getCycleMsP95(), 0.95);
    cycle.assertWithinBound(r.getCycleMsP99(), 0.99);
    tau.assertWithinBound(r.getAcceptLengthP50(), 0.50);
    tau.assertWithinBound(r.getAcceptLengthP95(), 0.95);
  }

  @Property(tries = 50)
  void mergeIsAssociativeAndWithinTheSketchBound(
      @ForAll("events") List<DecodeEvent> x,
      @ForAll("events") List<DecodeEvent> y,
      @ForAll("events") List<DecodeEvent> z) {
    WindowAccumulator a = fold(x);
    WindowAccumulator b = fold(y);
    WindowAccumulator c = fold(z);
    WindowResult left = a.merge(b).merge(c).toResult("d", 0, 60_000);
    WindowResult right = a.merge(b.merge(c)).toResult("d", 0, 60_000);
    assertThat(left.getCycles()).isEqualTo(right.getCycles());
    assertThat(left.getEvents()).isEqualTo(right.getEvents());
    assertThat(left.getAcceptedTokens()).isEqualTo(right.getAcceptedTokens());
    assertThat(left.getPerPositionAcceptance()).hasSameSizeAs(right.getPerPositionAcceptance());
    for (int i = 0; i < left.getPerPositionAcceptance().size(); i++) {
      assertThat(left.getPerPositionAcceptance().get(i))
          .isCloseTo(right.getPerPositionAcceptance().get(i), within(1e-9));
      assertThat(left.getPerPositionConditional().get(i))
          .isCloseTo(right.getPerPositionConditional().get(i), within(1e-9));
    }
    if (left.getMeanCycleMs() != null) {
      assertThat(left.getMeanCycleMs()).isCloseTo(right.getMeanCycleMs(), within(1e-6));
    }
    ExactQuantiles cycle = new ExactQuantiles();
    ExactQuantiles verify = new ExactQuantiles();
    for (List<DecodeEvent> part : List.of(x, y, z)) {
      for (DecodeEvent e : part) {
        cycle.add(e.getCycleMs(), e.getCycles());
        verify.add(e.getVerifyMs(), e.getCycles());
      }
    }
    if (x.isEmpty() && y.isEmpty() && z.isEmpty()) {
      assertThat(left.getCycleMsP50()).isNull();
      assertThat(right.getCycleMsP50()).isNull();
      return;
    }
    // DDSketch merges add bin counts: both groupings give the same sketch, hence the same answers
    assertThat(a.merge(b).merge(c).cycleMs).isEqualTo(a.merge(b.merge(c)).cycleMs);
    assertThat(left.getCycleMsP99()).isEqualTo(right.getCycleMsP99());
    assertThat(left.getVerifyMsP95()).isEqualTo(right.getVerifyMsP95());
    for (WindowResult r : List.of(left, right)) {
      cycle.assertWithinBound(r.getCycleMsP50(), 0.50);
      cycle.assertWithinBound(r.getCycleMsP99(), 0.99);
      verify.assertWithinBound(r.getVerifyMsP95(), 0.95);
    }
  }

  @Provide
  Arbitrary<List<DecodeEvent>> events() {
    Arbitrary<DecodeEvent> one =
        Combinators.combine(
                Arbitraries.longs().between(1, 500),
                Arbitraries.doubles().between(5, 80).ofScale(2),
                Arbitraries.doubles().between(1, 5).ofScale(2),
                Arbitraries.longs().between(0, 500).list().ofMaxSize(5))
            .as(
                (cycles, ms, tau, counts) ->
                    event("d", 1)
                        .setCycles(cycles)
                        .setCycleMs(ms)
                        .setVerifyMs(ms * 0.7)
                        .setAcceptLength(tau)
                        .setPerPositionAccepted(counts)
                        .build());
    return one.list().ofMaxSize(40);
  }

  private static WindowAccumulator fold(List<DecodeEvent> events) {
    WindowAccumulator a = WindowAccumulator.empty();
    events.forEach(a::add);
    return a;
  }

  private static DecodeEvent timed(
      long second, long cycles, double tau, double cycleMs, double draftMs, double verifyMs) {
    return event("d", second)
        .setCycles(cycles)
        .setAcceptLength(tau)
        .setCycleMs(cycleMs)
        .setDraftMs(draftMs)
        .setVerifyMs(verifyMs)
        .build();
  }
}
