package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.serde.AvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The full topology from decode events to the alerts topic (default alert rules). */
class TopologyAlertsTest {
  private static final String IN = "decode-events";
  private static final String ALERTS = "alerts";

  @TempDir Path stateDir;
  private TopologyTestDriver driver;
  private TestInputTopic<String, DecodeEvent> input;
  private TestOutputTopic<String, Alert> alerts;

  @BeforeEach
  void setUp() {
    StreamsAppConfig config =
        new StreamsAppConfig(
            "unused:9092",
            "mock://topology-alerts-test",
            "topology-alerts-test",
            stateDir,
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            IN,
            "run-context",
            "window-results",
            "dead-letter",
            StaticBaselines.none(),
            Duration.ofHours(1),
            Map.of(),
            ALERTS,
            io.specwatch.streams.alert.AlertConfig.defaults());
    driver =
        new TopologyTestDriver(
            TopologyFactory.build(config.topologyInputs()), config.kafkaProperties(), T0);
    Map<String, Object> serde = config.serdeConfig();
    input =
        driver.createInputTopic(
            IN,
            Serdes.String().serializer(),
            AvroSerde.forClass(DecodeEvent.class, serde, false).serializer());
    alerts =
        driver.createOutputTopic(
            ALERTS,
            Serdes.String().deserializer(),
            AvroSerde.forClass(Alert.class, serde, false).deserializer());
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  @Test
  void collapsedAcceptLengthInThreeClosedWindowsRaisesAcceptCollapse() {
    // EAGLE launched instead of EAGLE3: tau 1.00, nothing accepted, 300 cycles per minute
    for (int minute = 0; minute < 3; minute++) {
      input.pipeInput(
          "kimi", full("kimi", 60L * minute + 10, 300, 1.0, 0, 600, 25.0, 40.0, 1000, 4));
    }
    input.pipeInput("kimi", full("kimi", 150, 300, 1.0, 0, 600, 25.0, 40.0, 1000, 4));
    assertThat(alerts.isEmpty()).as("windows 0 and 1 closed: two breaches").isTrue();
    input.pipeInput("kimi", full("kimi", 215, 300, 2.0, 300, 600, 30.0, 66.7, 1000, 4));

    List<Alert> out = alerts.readValuesToList();
    assertThat(out)
        .extracting(Alert::getDeploymentId, Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(
            tuple("kimi", AlertType.ACCEPT_COLLAPSE, AlertState.RAISED, T0.plusSeconds(120)));
    assertThat(out.get(0).getObserved()).isEqualTo(1.0);
    assertThat(out.get(0).getEvidence())
        .containsEntry("cycles", "600")
        .containsEntry("acceptedTokens", "0")
        .containsEntry("breachWindows", "3");
  }

  @Test
  void speculationBelowTheStaticBaselineRaisesSpecBelowBaselineWithTheSeedsNumbers() {
    driver.close();
    StreamsAppConfig config =
        new StreamsAppConfig(
            "unused:9092",
            "mock://topology-alerts-test",
            "topology-alerts-test",
            stateDir.resolve("baseline"),
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            IN,
            "run-context",
            "window-results",
            "dead-letter",
            StaticBaselines.parse(List.of("Kimi-K2.5|8xPCIe|8|*=12.2")),
            Duration.ofHours(1),
            Map.of(),
            ALERTS,
            io.specwatch.streams.alert.AlertConfig.defaults());
    driver =
        new TopologyTestDriver(
            TopologyFactory.build(config.topologyInputs()), config.kafkaProperties(), T0);
    Map<String, Object> serde = config.serdeConfig();
    input =
        driver.createInputTopic(
            IN,
            Serdes.String().serializer(),
            AvroSerde.forClass(DecodeEvent.class, serde, false).serializer());
    alerts =
        driver.createOutputTopic(
            ALERTS,
            Serdes.String().deserializer(),
            AvroSerde.forClass(Alert.class, serde, false).deserializer());
    driver
        .createInputTopic(
            "run-context",
            Serdes.String().serializer(),
            AvroSerde.forClass(RunContext.class, serde, false).serializer())
        .pipeInput(
            "kimi",
            TopologyHarness.context("kimi", "Kimi-K2.5", 8).setHardwareClass("8xPCIe").build());
    // seeds: tau 2.0, T_cyc 30 ms, t_AR 12.2 ms -> S = 0.8133, tau* = 2.459 (EAGLE3 at ~60 tok/s
    // against 82 plain)
    for (int minute = 0; minute < 3; minute++) {
      input.pipeInput(
          "kimi", full("kimi", 60L * minute + 10, 300, 2.0, 300, 600, 30.0, 66.7, 1000, 4));
    }
    input.pipeInput("kimi", full("kimi", 215, 300, 2.0, 300, 600, 30.0, 66.7, 1000, 4));

    List<Alert> out = alerts.readValuesToList();
    assertThat(out)
        .extracting(Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(
            tuple(AlertType.SPEC_BELOW_BASELINE, AlertState.RAISED, T0.plusSeconds(120)));
    Alert a = out.get(0);
    assertThat(a.getObserved()).isCloseTo(2.0 * 12.2 / 30.0, within(1e-9));
    assertThat(a.getEvidence())
        .containsEntry("tauStar", "2.45902")
        .containsEntry("baselineStepMs", "12.2")
        .containsEntry("baselineSource", "static");
  }
}
