package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.event;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real topology on TopologyTestDriver, with hand-computed expected windows. */
class TopologyTest {
  private static final String IN = "decode-events";
  private static final String OUT = "window-results";

  @TempDir Path stateDir;

  private TopologyTestDriver driver;
  private TestInputTopic<String, DecodeEvent> input;
  private TestOutputTopic<String, WindowResult> output;

  @BeforeEach
  void setUp() {
    StreamsAppConfig config =
        new StreamsAppConfig(
            "unused:9092",
            "mock://topology-test",
            "topology-test",
            stateDir,
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            IN,
            OUT,
            Map.of());
    driver =
        new TopologyTestDriver(
            TopologyFactory.build(config.topologyInputs()), config.kafkaProperties(), T0);
    Map<String, Object> serde = config.serdeConfig();
    input =
        driver.createInputTopic(
            IN,
            Serdes.String().serializer(),
            AvroSerde.forClass(DecodeEvent.class, serde, false).serializer());
    output =
        driver.createOutputTopic(
            OUT,
            Serdes.String().deserializer(),
            AvroSerde.forClass(WindowResult.class, serde, false).deserializer());
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  private void send(DecodeEvent e) {
    input.pipeInput(e.getDeploymentId(), e);
  }

  @Test
  void emitsOneHandComputedResultPerClosedWindowAndDropsLateEvents() {
    // window [0s, 60s): a = e1 + e2 + e5 (e5 out of order within grace); b = e3
    send(full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1)); // e1
    send(
        event("dep-b", 20)
            .setAcceptLength(1.5)
            .setGenThroughputTokS(80.0)
            .setRunningRequests(2)
            .build()); // e3: cycles null -> 1, no tokens, no cycleMs, no interval
    send(
        DecodeEvent.newBuilder(full("dep-b", 25, 999, 1.0, 0, 0, 12.0, 80.0, 1000.0, 9))
            .setSpecEnabled(false)
            .build()); // baseline event: skipped, counted
    send(full("dep-a", 50, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 3)); // e2
    send(full("dep-a", 70, 10, 4.0, 30, 30, 25.0, 100.0, 2000.0, 4)); // e4, window [60s, 120s)
    send(
        event("dep-a", 40)
            .setCycles(40L)
            .setAcceptLength(2.0)
            .setAcceptedTokens(40L)
            .setDraftedTokens(120L)
            .setGenThroughputTokS(90.0)
            .build()); // e5: no interval/cycleMs
    assertThat(output.isEmpty()).as("no window closed before stream time 90s").isTrue();
    assertThat(
            driver
                .<String, WindowAccumulator>getWindowStore(TopologyNames.WINDOW_STORE)
                .fetch("dep-a", T0.toEpochMilli())
                .events)
        .isEqualTo(3);

    send(full("dep-b", 95, 5, 2.0, 5, 10, 40.0, 50.0, 3000.0, 5)); // e6: closes [0s, 60s)
    Map<String, WindowResult> first = byDeployment(output.readKeyValuesToList());
    assertThat(first).containsOnlyKeys("dep-a", "dep-b");

    WindowResult a = first.get("dep-a");
    assertThat(a.getWindowStart()).isEqualTo(T0);
    assertThat(a.getWindowEnd()).isEqualTo(T0.plusSeconds(60));
    assertThat(a.getEvents()).isEqualTo(3);
    assertThat(a.getCycles()).isEqualTo(200);
    assertThat(a.getMeanAcceptLength()).isCloseTo(520.0 / 200, within(1e-9)); // 2.6
    assertThat(a.getAcceptedTokens()).isEqualTo(320);
    assertThat(a.getDraftedTokens()).isEqualTo(600);
    assertThat(a.getAcceptRate()).isCloseTo(320.0 / 600, within(1e-9));
    assertThat(a.getMeanCycleMs()).isCloseTo(3600.0 / 160, within(1e-9)); // 22.5
    assertThat(a.getEffectiveTokSPerRequest()).isCloseTo(1000 * 2.6 / 22.5, within(1e-9));
    // e5 has no interval: weighs as the mean interval of e1, e2 = 2500 ms
    assertThat(a.getBatchTokS()).isCloseTo(615000.0 / 7500, within(1e-9)); // 82.0
    assertThat(a.getMeanBatchSize()).isCloseTo(400.0 / 160, within(1e-9)); // 2.5
    assertThat(a.getSpecEnabled()).isTrue();
    assertThat(a.getPromptCategory()).isEqualTo("*");
    // tau 2.0 x80 cycles (e1, e5), 3.0 x120 (e2): exact while the sketch keeps every item
    assertThat(a.getAcceptLengthP50()).isEqualTo(3.0);
    assertThat(a.getAcceptLengthP95()).isEqualTo(3.0);
    // cycle ms 20 x120 (e2), 30 x40 (e1) of 160: p50 20, p95 30, p99 30
    assertThat(a.getCycleMsP50()).isEqualTo(20.0);
    assertThat(a.getCycleMsP95()).isEqualTo(30.0);
    assertThat(a.getCycleMsP99()).isEqualTo(30.0);
    assertThat(a.getDraftMsP50()).isNull();
    assertThat(a.getPerPositionAcceptance()).isEmpty();
    assertThat(a.getSpeedup()).isNull();

    WindowResult b = first.get("dep-b");
    assertThat(b.getEvents()).isEqualTo(1);
    assertThat(b.getCycles()).isEqualTo(1);
    assertThat(b.getMeanAcceptLength()).isEqualTo(1.5);
    assertThat(b.getAcceptedTokens()).isZero();
    assertThat(b.getAcceptRate()).as("nothing drafted").isNull();
    assertThat(b.getMeanCycleMs()).isNull();
    assertThat(b.getEffectiveTokSPerRequest()).isNull();
    assertThat(b.getBatchTokS()).isEqualTo(80.0);
    assertThat(b.getMeanBatchSize()).isEqualTo(2.0);

    // late: window [0s, 60s) closed at stream time 90s, stream time is now 95s
    send(full("dep-a", 55, 1000, 9.0, 1000, 1000, 1.0, 1.0, 1.0, 1)); // e7, dropped
    assertThat(output.isEmpty()).isTrue();
    StreamsMetricsSummary metrics = StreamsMetricsSummary.of(driver.metrics());
    assertThat(metrics.dropped()).as("dropped-records-total").isEqualTo(1);
    assertThat(metrics.nonSpeculativeSkipped()).isEqualTo(1);

    send(full("dep-a", 200, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1)); // closes [60s, 120s)
    List<KeyValue<String, WindowResult>> second = output.readKeyValuesToList();
    assertThat(second).hasSize(2);
    Map<String, WindowResult> byDep = byDeployment(second);
    WindowResult a2 = byDep.get("dep-a");
    assertThat(a2.getWindowStart()).isEqualTo(T0.plusSeconds(60));
    assertThat(a2.getEvents()).as("only e4: the late e7 is not counted anywhere").isEqualTo(1);
    assertThat(a2.getMeanAcceptLength()).isEqualTo(4.0);
    assertThat(a2.getEffectiveTokSPerRequest()).isCloseTo(160.0, within(1e-9));
    assertThat(byDep.get("dep-b").getMeanCycleMs()).isEqualTo(40.0);
    assertThat(output.isEmpty()).isTrue();
  }

  @Test
  void perPositionAcceptanceAndLatencyPercentiles() {
    // dep-p, window [0s, 60s): per-position from shares x cycles, counts, and a cycle event
    send(
        event("dep-p", 5)
            .setCycles(40L)
            .setPerPositionAcceptance(List.of(0.5, 0.25, 0.1))
            .setDraftMs(3.0)
            .setVerifyMs(19.0)
            .setCycleMs(24.0)
            .build()); // 20, 10, 4
    send(
        event("dep-p", 6)
            .setCycles(10L)
            .setPerPositionAccepted(List.of(8L, 6L))
            .setDraftMs(4.0)
            .setVerifyMs(29.0)
            .setCycleMs(35.0)
            .build()); // 8, 6
    send(
        event("dep-p", 7)
            .setKind(io.specwatch.schemas.EventKind.CYCLE)
            .setCycles(1L)
            .setPerPositionAccepted(List.of(1L, 1L, 1L, 1L))
            .setDraftMs(9.0)
            .setVerifyMs(60.0)
            .setCycleMs(80.0)
            .build()); // 1, 1, 1, 1
    // dep-q, window [0s, 60s): 1,000 events with known verify ms
    ExactQuantiles verify = new ExactQuantiles();
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 1000; i++) {
      double v = 15 + 10 * random.nextDouble() + (i % 50 == 0 ? 40 : 0);
      long cycles = 1 + i % 3;
      verify.add(v, cycles);
      send(event("dep-q", i % 60).setCycles(cycles).setVerifyMs(v).build());
    }
    send(event("dep-p", 100).setCycles(1L).build()); // closes [0s, 60s)
    Map<String, WindowResult> out = byDeployment(output.readKeyValuesToList());

    WindowResult p = out.get("dep-p");
    // sums [29, 17, 5, 1] over 51 cycles
    assertThat(p.getPerPositionAcceptance())
        .containsExactly(29.0 / 51, 17.0 / 51, 5.0 / 51, 1.0 / 51);
    assertThat(p.getPerPositionConditional())
        .containsExactly(29.0 / 51, 17.0 / 29, 5.0 / 17, 1.0 / 5);
    // verify ms 19 x40, 29 x10, 60 x1 of 51 cycles: p50 19, p95 (48.45) 29, p99 (50.49) 60
    assertThat(p.getVerifyMsP50()).isEqualTo(19.0);
    assertThat(p.getVerifyMsP95()).isEqualTo(29.0);
    assertThat(p.getVerifyMsP99()).isEqualTo(60.0);
    assertThat(p.getDraftMsP50()).isEqualTo(3.0);
    assertThat(p.getDraftMsP95()).isEqualTo(4.0);
    assertThat(p.getCycleMsP99()).isEqualTo(80.0);
    assertThat(p.getAcceptLengthP50()).isNull();

    WindowResult q = out.get("dep-q");
    assertThat(q.getCycles()).isEqualTo(1999); // 334 x1 + 333 x2 + 333 x3
    verify.assertWithinBound(q.getVerifyMsP50(), 0.50);
    verify.assertWithinBound(q.getVerifyMsP95(), 0.95);
    verify.assertWithinBound(q.getVerifyMsP99(), 0.99);
  }

  @Test
  void windowsOfOneDeploymentCloseOnStreamTimeOfTheTask() {
    send(full("dep-a", 0, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1));
    send(full("dep-a", 89, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1));
    assertThat(output.isEmpty()).as("window end 60s + grace 30s not yet reached").isTrue();
    send(full("dep-b", 90, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1));
    List<KeyValue<String, WindowResult>> out = output.readKeyValuesToList();
    assertThat(out).hasSize(1);
    assertThat(out.get(0).key).isEqualTo("dep-a");
    assertThat(out.get(0).value.getEvents()).isEqualTo(1);
  }

  private static Map<String, WindowResult> byDeployment(List<KeyValue<String, WindowResult>> kvs) {
    assertThat(kvs).allSatisfy(kv -> assertThat(kv.key).isEqualTo(kv.value.getDeploymentId()));
    return kvs.stream()
        .collect(
            Collectors.toMap(
                kv -> kv.key,
                kv -> kv.value,
                (x, y) -> {
                  throw new AssertionError("two results for one deployment: " + x + " / " + y);
                }));
  }
}
