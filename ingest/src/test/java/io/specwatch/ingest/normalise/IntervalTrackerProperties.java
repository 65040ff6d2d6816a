package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The tracker gives what {@link ReferenceIntervalTracker} (its former three-map code) gives. */
class IntervalTrackerProperties {

  /** One call: which method, rank key, time (null allowed) and passes. */
  record Call(boolean cycle, String key, Instant time, long passes) {}

  @Property(tries = 400)
  void sameResultsAsTheThreeMapTracker(@ForAll("calls") List<Call> calls) {
    IntervalTracker tracker = new IntervalTracker();
    ReferenceIntervalTracker reference = new ReferenceIntervalTracker();
    int results = 0;
    for (Call c : calls) {
      Double got =
          c.cycle()
              ? tracker.cycleMs(c.key(), c.time(), c.passes())
              : tracker.next(c.key(), c.time());
      Double want =
          c.cycle()
              ? reference.cycleMs(c.key(), c.time(), c.passes())
              : reference.next(c.key(), c.time());
      assertThat(got).as("%s", c).isEqualTo(want);
      results += got == null ? 0 : 1;
    }
    // most lists of more than a few calls give results, so the comparison is not only of nulls
    if (calls.size() >= 100) {
      assertThat(results).isPositive();
    }
  }

  @Example
  void bothMethodsGiveNonNullResults() {
    IntervalTracker t = new IntervalTracker();
    Instant t0 = Instant.parse("2026-12-02T00:00:00Z");
    assertThat(t.next("k", t0)).isNull();
    assertThat(t.next("k", t0.plusMillis(1500))).isEqualTo(1500.0);
    assertThat(t.cycleMs("k", t0, 40)).isNull();
    assertThat(t.cycleMs("k", t0, 40)).isNull();
    assertThat(t.cycleMs("k", t0.plusSeconds(1), 40)).isEqualTo(12.5);
  }

  @Provide
  Arbitrary<List<Call>> calls() {
    long base = Instant.parse("2026-12-02T00:00:00Z").toEpochMilli();
    // times from a 20 s range, a third of them on whole seconds (lines that share a second), some
    // with sub-ms nanos: equal, advancing and earlier times all occur often
    Arbitrary<Instant> time =
        Combinators.combine(
                Arbitraries.longs().between(0, 20_000), Arbitraries.integers().between(0, 999_999))
            .as(
                (ms, nanos) -> {
                  long at = ms % 3 == 0 ? ms / 1000 * 1000 : ms;
                  return Instant.ofEpochMilli(base + at).plusNanos(ms % 7 == 0 ? nanos : 0);
                })
            .injectNull(0.1);
    Arbitrary<Call> call =
        Combinators.combine(
                Arbitraries.of(true, false),
                Arbitraries.of("tp0", "tp1", "throughput|p|r", "spec|k"),
                time,
                Arbitraries.longs().between(-2, 64))
            .as(Call::new);
    return call.list().ofMinSize(0).ofMaxSize(200);
  }
}
