package io.specwatch.streams.alert;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.streams.StaticBaselines;
import io.specwatch.streams.StreamsAppConfig;
import io.specwatch.streams.TopologyInputs;
import io.specwatch.streams.TopologyNames;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A small topology for the alert rules: window results and run contexts straight from input topics
 * into {@link AlertTopology#addTo}, on TopologyTestDriver; plus window and context fixtures.
 */
final class AlertFixtures implements AutoCloseable {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final String WINDOWS = "window-results";
  static final String CONTEXTS = "run-contexts";
  static final String ALERTS = "alerts";

  final TopologyTestDriver driver;
  final TestInputTopic<String, WindowResult> windows;
  final TestInputTopic<String, RunContext> contexts;
  final TestOutputTopic<String, Alert> alerts;

  AlertFixtures(Path stateDir, AlertConfig alertConfig) {
    StreamsAppConfig config =
        new StreamsAppConfig(
            "unused:9092",
            "mock://alert-test",
            "alert-test",
            stateDir,
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            "decode-events",
            CONTEXTS,
            WINDOWS,
            "dead-letter",
            StaticBaselines.none(),
            Duration.ofHours(1),
            Map.of(),
            ALERTS,
            alertConfig);
    TopologyInputs in = config.topologyInputs();
    driver = new TopologyTestDriver(build(in), config.kafkaProperties(), T0);
    Map<String, Object> serde = config.serdeConfig();
    windows =
        driver.createInputTopic(
            WINDOWS,
            Serdes.String().serializer(),
            AvroSerde.forClass(WindowResult.class, serde, false).serializer());
    contexts =
        driver.createInputTopic(
            CONTEXTS,
            Serdes.String().serializer(),
            AvroSerde.forClass(RunContext.class, serde, false).serializer());
    alerts =
        driver.createOutputTopic(
            ALERTS,
            Serdes.String().deserializer(),
            AvroSerde.forClass(Alert.class, serde, false).deserializer());
  }

  private static Topology build(TopologyInputs in) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "alert-test-topology");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
    StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
    KStream<String, WindowResult> results =
        builder.stream(
            WINDOWS,
            Consumed.with(Serdes.String(), in.windowResultSerde()).withName("test-windows-source"));
    KTable<String, RunContext> runContexts =
        builder.table(
            CONTEXTS,
            Consumed.with(Serdes.String(), in.runContextSerde())
                .withName(TopologyNames.RUN_CONTEXT_SOURCE),
            Materialized.<String, RunContext, KeyValueStore<Bytes, byte[]>>as(
                    TopologyNames.RUN_CONTEXT_STORE)
                .withKeySerde(Serdes.String())
                .withValueSerde(in.runContextSerde())
                .withCachingDisabled());
    AlertTopology.addTo(builder, results, runContexts, in);
    return builder.build();
  }

  /** Defaults with N raise and M clear windows and the given min cycles. */
  static AlertConfig config(int raise, int clear, long minCycles) {
    AlertConfig d = AlertConfig.defaults();
    return copy(d, raise, clear, minCycles, d.minShiftSds(), d.rebaselineWindows());
  }

  /** The same config with another rebaseline setting. */
  static AlertConfig withRebaseline(AlertConfig c, int rebaselineWindows) {
    return copy(
        c, c.raiseWindows(), c.clearWindows(), c.minCycles(), c.minShiftSds(), rebaselineWindows);
  }

  /** The same config with another minimum shift in reference standard deviations. */
  static AlertConfig withMinShiftSds(AlertConfig c, double minShiftSds) {
    return copy(
        c, c.raiseWindows(), c.clearWindows(), c.minCycles(), minShiftSds, c.rebaselineWindows());
  }

  private static AlertConfig copy(
      AlertConfig c,
      int raise,
      int clear,
      long minCycles,
      double minShiftSds,
      int rebaselineWindows) {
    return new AlertConfig(
        raise,
        clear,
        minCycles,
        c.belowBaselineSpeedup(),
        c.collapseAcceptLength(),
        c.noDataSilence(),
        c.noDataCheckInterval(),
        c.referenceWindows(),
        c.minReferenceWindows(),
        c.recentWindows(),
        c.confidence(),
        c.minEffect(),
        minShiftSds,
        rebaselineWindows,
        c.partitions());
  }

  static Instant minute(int i) {
    return T0.plus(Duration.ofMinutes(i));
  }

  /**
   * A deployment-total window of minute {@code i}: tau, cycle ms, verify ms given; effective tok/s
   * = 1000 tau / cycle ms; speedup and tau* from {@code baselineStepMs} when not null.
   */
  static WindowResult.Builder window(
      String deployment,
      int i,
      long cycles,
      double tau,
      double cycleMs,
      double verifyMs,
      Double baselineStepMs) {
    WindowResult.Builder b =
        WindowResult.newBuilder()
            .setDeploymentId(deployment)
            .setWindowStart(minute(i))
            .setWindowEnd(minute(i + 1))
            .setEvents(cycles / 40 + 1)
            .setCycles(cycles)
            .setMeanAcceptLength(tau)
            .setMeanCycleMs(cycleMs)
            .setVerifyMsP50(verifyMs)
            .setEffectiveTokSPerRequest(1000 * tau / cycleMs);
    if (baselineStepMs != null) {
      b.setBaselineStepMs(baselineStepMs)
          .setBaselineTokS(1000 / baselineStepMs)
          .setSpeedup(tau * baselineStepMs / cycleMs)
          .setBreakEvenAcceptLength(cycleMs / baselineStepMs)
          .setBaselineSource("static:test");
    }
    return b;
  }

  void send(WindowResult w) {
    windows.pipeInput(w.getDeploymentId(), w, w.getWindowEnd());
  }

  /** A run context of {@code deployment} observed at {@code observedAt}. */
  static RunContext.Builder context(String deployment, String contextId, Instant observedAt) {
    return RunContext.newBuilder()
        .setContextId(contextId)
        .setDeploymentId(deployment)
        .setObservedAt(observedAt)
        .setEngine(Engine.SGLANG)
        .setEngineCommit("bba2fc4")
        .setModel("moonshotai/Kimi-K2.5")
        .setDraftModel("kimi-k2.5-eagle3")
        .setSpecMethod("EAGLE3")
        .setNumSteps(2)
        .setTopk(1)
        .setNumDraftTokens(3)
        .setTp(8)
        .setCudaGraph(true)
        .setEnv(Map.of("NCCL_PROTO", "LL", "NCCL_ALGO", "Ring", "NCCL_P2P_LEVEL", "SYS"));
  }

  void send(RunContext c) {
    contexts.pipeInput(c.getDeploymentId(), c, c.getObservedAt());
  }

  List<Alert> read() {
    return alerts.readValuesToList();
  }

  @Override
  public void close() {
    driver.close();
  }
}
