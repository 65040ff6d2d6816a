package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.serde.SchemaRegistryException;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** Buckets, comparison keys, static and learned baselines, their serdes, error classification. */
class BaselinePartsTest {

  @Test
  void bucketBoundaries() {
    assertThat(BatchBuckets.of(0)).isEqualTo("1");
    assertThat(BatchBuckets.of(1)).isEqualTo("1");
    assertThat(BatchBuckets.of(2)).isEqualTo("2-4");
    assertThat(BatchBuckets.of(4)).isEqualTo("2-4");
    assertThat(BatchBuckets.of(5)).isEqualTo("5-8");
    assertThat(BatchBuckets.of(16)).isEqualTo("9-16");
    assertThat(BatchBuckets.of(17)).isEqualTo("17-32");
    assertThat(BatchBuckets.of(64)).isEqualTo("33-64");
    assertThat(BatchBuckets.of(65)).isEqualTo("65-128");
    assertThat(BatchBuckets.of(128)).isEqualTo("65-128");
    assertThat(BatchBuckets.of(129)).isEqualTo("129+");
    assertThat(BatchBuckets.ofMean(2.5)).contains("2-4"); // rounds half up to 3
    assertThat(BatchBuckets.ofMean(4.5)).contains("5-8");
    assertThat(BatchBuckets.ofMean(null)).isEmpty();
    assertThat(BatchBuckets.ofMean(Double.NaN)).isEmpty();
  }

  @Test
  void breakdownKeysOfAnEvent() {
    assertThat(BreakdownKey.of(event("d", 0).build())).containsExactly(BreakdownKey.total(true));
    assertThat(
            BreakdownKey.of(
                event("d", 0)
                    .setSpecEnabled(false)
                    .setPromptCategory("code")
                    .setRunningRequests(40)
                    .build()))
        .containsExactly(
            BreakdownKey.total(false),
            new BreakdownKey(false, "code", "*"),
            new BreakdownKey(false, "*", "33-64"));
    assertThat(BreakdownKey.of(event("d", 0).setPromptCategory("  ").build())).hasSize(1);
  }

  @Test
  void staticBaselinesParseAndFailNamingTheSetting() {
    StaticBaselines s =
        StaticBaselines.parse(List.of("kimi|8xH100|8|1=12.2", "kimi|8xH100|8|*=14"));
    ComparisonKey one = new ComparisonKey("kimi", "8xH100", 8, "1");
    assertThat(s.lookup(one)).contains(12.2);
    assertThat(s.lookup(one.withBucket("9-16"))).as("falls back to bucket *").contains(14.0);
    assertThat(s.lookup(new ComparisonKey("kimi", "8xH100", 4, "1"))).isEmpty();
    for (String bad :
        List.of(
            "kimi|8xH100|8|1",
            "kimi|8xH100|8=12",
            "kimi|8xH100|x|1=12",
            "kimi|8xH100|0|1=12",
            "kimi|8xH100|8|3-5=12",
            "kimi|8xH100|8|1=-1",
            "kimi|8xH100|8|1=fast",
            "|8xH100|8|1=12")) {
      assertThatThrownBy(() -> StaticBaselines.parse(List.of(bad)))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("static-baseline");
    }
    assertThatThrownBy(() -> StaticBaselines.parse(List.of("a|b|1|1=2", "a|b|1|1=3")))
        .hasMessageContaining("twice");
  }

  @Test
  void learnedBaselinesPickTheLatestEarlierWindowWithinMaxAge() {
    LearnedBaselines l =
        LearnedBaselines.empty()
            .with(new LearnedBaselines.Entry(120_000, 13.0, 10, "plain-a"))
            .with(new LearnedBaselines.Entry(0, 12.0, 10, "plain-a"))
            .with(new LearnedBaselines.Entry(60_000, 12.5, 10, "plain-b"));
    assertThat(l.entries())
        .extracting(LearnedBaselines.Entry::windowStartMs)
        .containsExactly(0L, 60_000L, 120_000L);
    assertThat(l.forWindow(120_000, 3_600_000).map(LearnedBaselines.Entry::stepMs))
        .as("strictly earlier: 60 s, not the same window")
        .contains(12.5);
    assertThat(l.forWindow(0, 3_600_000)).isEmpty();
    assertThat(l.forWindow(180_000, 60_000).map(LearnedBaselines.Entry::stepMs)).contains(13.0);
    assertThat(l.forWindow(300_000, 60_000)).as("older than max age").isEmpty();
    // the same deployment and window again replaces the entry
    assertThat(l.with(new LearnedBaselines.Entry(0, 11.0, 5, "plain-a")).entries())
        .hasSize(3)
        .first()
        .extracting(LearnedBaselines.Entry::stepMs)
        .isEqualTo(11.0);
    LearnedBaselines many = LearnedBaselines.empty();
    for (int i = 0; i < 100; i++) {
      many = many.with(new LearnedBaselines.Entry(i * 60_000L, 12.0, 1, "p"));
    }
    assertThat(many.entries()).hasSize(LearnedBaselines.MAX_ENTRIES);
    assertThat(many.entries().get(0).windowStartMs()).isEqualTo(36 * 60_000L);
  }

  @Test
  void learnedBaselinesSerdeRoundTripsAndRejectsGarbage() {
    LearnedBaselines l =
        LearnedBaselines.empty()
            .with(new LearnedBaselines.Entry(0, 12.25, 400, "kimi-plain"))
            .with(new LearnedBaselines.Entry(60_000, 20.0, 100, "pläin"));
    LearnedBaselinesSerde serde = new LearnedBaselinesSerde();
    byte[] bytes = serde.serializer().serialize("t", l);
    assertThat(serde.deserializer().deserialize("t", bytes)).isEqualTo(l);
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {9}))
        .isInstanceOf(SerializationException.class);
    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 2);
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", cut))
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void deploymentWindowSerdeRoundTripsAndReadsTheSingleAccumulatorOfTheLastRelease() {
    DeploymentWindow w =
        DeploymentWindow.empty()
            .add(
                new WindowInput(
                    TestEvents.full("d", 1, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 3), false))
            .add(
                new WindowInput(
                    event("d", 2)
                        .setPromptCategory("chat")
                        .setSpecEnabled(false)
                        .setCycles(5L)
                        .build(),
                    false))
            .add(new WindowInput(event("d", 3).setRunningRequests(1).build(), true));
    DeploymentWindowSerde serde = new DeploymentWindowSerde();
    byte[] bytes = serde.serializer().serialize("t", w);
    assertThat(bytes[0]).isEqualTo(DeploymentWindowSerde.VERSION_ROWS_1);
    DeploymentWindow back = serde.deserializer().deserialize("t", bytes);
    assertThat(back).isEqualTo(w);
    assertThat(back.rows()).hasSize(5);
    assertThat(back.rows().get(new BreakdownKey(true, "*", "1")).lateEvents()).isEqualTo(1);
    assertThat(back.toResults("d", 0, 60_000)).isEqualTo(w.toResults("d", 0, 60_000));

    WindowAccumulator legacy =
        WindowAccumulator.empty()
            .add(TestEvents.full("d", 1, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 3));
    // a v2 blob (KLL sketches) as the single-accumulator release wrote it
    double nan = Double.NaN;
    byte[] v2 =
        WindowAccumulatorSerdeTest.legacyKllBlob(
            legacy, new double[][] {{nan}, {nan}, {30.0}, {2.0}}, new long[] {40}, false);
    assertThat(v2[0]).isEqualTo(WindowAccumulatorSerde.VERSION_2);
    DeploymentWindow restored = serde.deserializer().deserialize("t", v2);
    assertThat(restored.rows()).containsOnlyKeys(BreakdownKey.total(true));
    assertThat(restored.rows().get(BreakdownKey.total(true))).isEqualTo(legacy);
  }

  @Test
  void retriableFailuresAreNotPoison() {
    assertThat(
            DeadLetters.isRetriable(
                new SerializationException("bad", new SchemaRegistryException(0, 0, "down"))))
        .isTrue();
    assertThat(DeadLetters.isRetriable(new SchemaRegistryException(503, 503, "busy"))).isTrue();
    assertThat(DeadLetters.isRetriable(new TimeoutException("slow"))).isTrue();
    assertThat(
            DeadLetters.isRetriable(
                new SerializationException(
                    "x",
                    new SchemaRegistryException(
                        404, SchemaRegistryException.SCHEMA_NOT_FOUND, "no"))))
        .isFalse();
    assertThat(DeadLetters.isRetriable(new InvalidEventException("key"))).isFalse();
  }
}
