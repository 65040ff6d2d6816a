package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The all-fields-constructor copies and rows equal what {@code WindowResult}'s builder made before
 * (the builder is the reference here), for random rows with and without optional fields.
 */
class WindowResultCopiesTest {

  @Property(tries = 200)
  void copiesEqualTheBuildersCopies(@ForAll long seed) {
    Random r = new Random(seed);
    WindowResult row = randomRow(r);
    String s = r.nextBoolean() ? null : "source-" + r.nextInt(5);
    Double a = maybe(r);
    Double b = maybe(r);
    Double c = maybe(r);
    Double d = maybe(r);
    Double e = maybe(r);

    assertThat(WindowResultCopies.withRunContextId(row, s))
        .isEqualTo(WindowResult.newBuilder(row).setRunContextId(s).build());
    assertThat(WindowResultCopies.withBaselineSource(row, s))
        .isEqualTo(WindowResult.newBuilder(row).setBaselineSource(s).build());
    assertThat(WindowResultCopies.withBaseline(row, s, a, b, c, d, e))
        .isEqualTo(
            WindowResult.newBuilder(row)
                .setBaselineSource(s)
                .setBaselineStepMs(a)
                .setBaselineTokS(b)
                .setSpeedup(c)
                .setBreakEvenAcceptLength(d)
                .setAcceptMargin(e)
                .build());
    // a changed field is a different row: the comparison can fail
    assertThat(WindowResultCopies.withRunContextId(row, "other-context")).isNotEqualTo(row);
  }

  @Property(tries = 100)
  void accumulatorRowsEqualTheBuildersRows(@ForAll long seed) {
    Random r = new Random(seed);
    WindowAccumulator acc = WindowAccumulator.empty();
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      DecodeEvent.Builder ev = TestEvents.event("d", i).setCycles((long) r.nextInt(100));
      if (r.nextBoolean()) {
        ev.setAcceptLength(1 + r.nextDouble() * 3).setCycleMs(10 + r.nextDouble() * 30);
        ev.setDraftMs(r.nextDouble() * 3).setVerifyMs(15 + r.nextDouble() * 10);
        ev.setPerPositionAcceptance(List.of(r.nextDouble(), r.nextDouble() / 2));
        ev.setRunningRequests(1 + r.nextInt(64)).setGenThroughputTokS(r.nextDouble() * 500);
        ev.setAcceptedTokens((long) r.nextInt(1000)).setDraftedTokens((long) r.nextInt(3000));
      }
      acc.add(ev.build());
    }
    if (r.nextBoolean()) {
      acc.addLate();
    }
    BreakdownKey key = new BreakdownKey(r.nextBoolean(), "*", r.nextBoolean() ? "*" : "5-8");
    assertThat(acc.toResult("dep-1", key, 60_000, 120_000))
        .isEqualTo(
            WindowResult.newBuilder()
                .setDeploymentId("dep-1")
                .setPromptCategory(key.promptCategory())
                .setBatchBucket(key.batchBucket())
                .setWindowStart(Instant.ofEpochMilli(60_000))
                .setWindowEnd(Instant.ofEpochMilli(120_000))
                .setEvents(acc.events)
                .setCycles(acc.cycles)
                .setSpecEnabled(key.specEnabled())
                .setLateEvents(acc.lateEvents())
                .setMeanAcceptLength(acc.meanAcceptLength())
                .setAcceptRate(acc.acceptRate())
                .setAcceptedTokens(acc.acceptedTokens)
                .setDraftedTokens(acc.draftedTokens)
                .setMeanCycleMs(acc.meanCycleMs())
                .setEffectiveTokSPerRequest(acc.effectiveTokSPerRequest())
                .setBatchTokS(acc.batchTokS())
                .setMeanBatchSize(acc.meanBatchSize())
                .setPerPositionAcceptance(acc.perPositionAcceptance())
                .setPerPositionConditional(acc.perPositionConditional())
                .setDraftMsP50(acc.draftMs.quantile(0.50))
                .setDraftMsP95(acc.draftMs.quantile(0.95))
                .setDraftMsP99(acc.draftMs.quantile(0.99))
                .setVerifyMsP50(acc.verifyMs.quantile(0.50))
                .setVerifyMsP95(acc.verifyMs.quantile(0.95))
                .setVerifyMsP99(acc.verifyMs.quantile(0.99))
                .setCycleMsP50(acc.cycleMs.quantile(0.50))
                .setCycleMsP95(acc.cycleMs.quantile(0.95))
                .setCycleMsP99(acc.cycleMs.quantile(0.99))
                .setAcceptLengthP50(acc.acceptLength.quantile(0.50))
                .setAcceptLengthP95(acc.acceptLength.quantile(0.95))
                .build());
  }

  private static Double maybe(Random r) {
    return r.nextBoolean() ? null : r.nextDouble() * 100;
  }

  private static WindowResult randomRow(Random r) {
    WindowResult.Builder b =
        WindowResult.newBuilder()
            .setDeploymentId("dep-" + r.nextInt(9))
            .setPromptCategory(r.nextBoolean() ? "*" : "code")
            .setBatchBucket(r.nextBoolean() ? "*" : "9-16")
            .setWindowStart(Instant.ofEpochMilli(60_000L * r.nextInt(100)))
            .setWindowEnd(Instant.ofEpochMilli(60_000L * (100 + r.nextInt(100))))
            .setEvents((long) r.nextInt(1000))
            .setCycles((long) r.nextInt(100_000))
            .setRequests((long) r.nextInt(10))
            .setSpecEnabled(r.nextBoolean())
            .setMeanAcceptLength(maybe(r))
            .setAcceptLengthP50(maybe(r))
            .setAcceptLengthP95(maybe(r))
            .setAcceptRate(maybe(r))
            .setAcceptedTokens((long) r.nextInt(5000))
            .setDraftedTokens((long) r.nextInt(5000))
            .setPerPositionAcceptance(r.nextBoolean() ? List.of() : List.of(r.nextDouble(), 0.5))
            .setPerPositionConditional(r.nextBoolean() ? List.of() : List.of(r.nextDouble()))
            .setDraftMsP50(maybe(r))
            .setDraftMsP95(maybe(r))
            .setDraftMsP99(maybe(r))
            .setVerifyMsP50(maybe(r))
            .setVerifyMsP95(maybe(r))
            .setVerifyMsP99(maybe(r))
            .setCycleMsP50(maybe(r))
            .setCycleMsP95(maybe(r))
            .setCycleMsP99(maybe(r))
            .setMeanCycleMs(maybe(r))
            .setEffectiveTokSPerRequest(maybe(r))
            .setBatchTokS(maybe(r))
            .setMeanBatchSize(maybe(r))
            .setLateEvents((long) r.nextInt(4));
    if (r.nextBoolean()) {
      b.setBaselineStepMs(maybe(r))
          .setBaselineTokS(maybe(r))
          .setBaselineSource("static")
          .setSpeedup(maybe(r))
          .setBreakEvenAcceptLength(maybe(r))
          .setAcceptMargin(maybe(r))
          .setRunContextId(r.nextBoolean() ? null : "ctx-" + r.nextInt(3));
    }
    return b.build();
  }
}
