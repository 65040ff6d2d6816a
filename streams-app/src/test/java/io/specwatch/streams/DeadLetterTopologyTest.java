package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Poison records become DeadLetter records with context; the good records still make windows.
 *
 * <p>Runs with at_least_once: under exactly_once_v2 TopologyTestDriver loses the records a
 * deserialization handler returns (its mock producer never commits them when no record of that poll
 * was processed). {@code DeadLetterIT} checks the same on the real broker under exactly_once_v2,
 * where they are committed.
 */
class DeadLetterTopologyTest {
  @TempDir Path stateDir;

  private TopologyHarness h;

  @BeforeEach
  void setUp() {
    h =
        new TopologyHarness(
            stateDir,
            StaticBaselines.none(),
            Duration.ofHours(1),
            Map.of("processing.guarantee", "at_least_once"));
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  @Test
  void undecodableAndInvalidRecordsAreDeadLetteredWithContext() {
    h.send(full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1)); // offset 0
    byte[] garbage = "not avro at all".getBytes(StandardCharsets.UTF_8);
    h.rawInput.pipeInput("dep-a", garbage); // offset 1: deserialization fails
    DecodeEvent foreign = full("dep-b", 20, 5, 3.0, 10, 15, 20.0, 1.0, 1.0, 1);
    h.input.pipeInput("not-dep-b", foreign); // offset 2: key differs from deploymentId
    h.send(full("dep-a", 50, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 1)); // offset 3
    h.send(full("dep-a", 95, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1)); // closes [0s, 60s)

    List<KeyValue<String, DeadLetter>> letters = h.deadLetters.readKeyValuesToList();
    assertThat(letters).hasSize(2);

    KeyValue<String, DeadLetter> undecodable = letters.get(0);
    assertThat(undecodable.key).isEqualTo(TopologyHarness.IN);
    DeadLetter d = undecodable.value;
    assertThat(d.getStage()).isEqualTo("streams.deserialize");
    assertThat(d.getSource()).isEqualTo(TopologyHarness.IN);
    assertThat(d.getTopic()).isEqualTo(TopologyHarness.IN);
    assertThat(d.getPartition()).isZero();
    assertThat(d.getOffset()).isEqualTo(1L);
    assertThat(d.getErrorClass()).isEqualTo(SerializationException.class.getName());
    assertThat(d.getErrorMessage()).contains("magic byte");
    assertThat(bytes(d)).isEqualTo(garbage);
    assertThat(d.getContext())
        .containsEntry(
            "key.base64",
            Base64.getEncoder().encodeToString("dep-a".getBytes(StandardCharsets.UTF_8)));

    DeadLetter p = letters.get(1).value;
    assertThat(p.getStage()).isEqualTo("streams.process");
    assertThat(p.getTopic()).isEqualTo(TopologyHarness.IN);
    assertThat(p.getOffset()).isEqualTo(2L);
    assertThat(p.getErrorClass()).isEqualTo(InvalidEventException.class.getName());
    assertThat(p.getErrorMessage()).contains("'not-dep-b'").contains("'dep-b'");
    assertThat(p.getContext()).containsEntry("processor", TopologyNames.EVENT_GATE);
    assertThat(h.eventSerde.deserializer().deserialize(TopologyHarness.IN, bytes(p)))
        .as("raw bytes replay to the original event")
        .isEqualTo(foreign);

    // the good records around them
    var rows = h.rows();
    assertThat(rows).containsOnlyKeys("dep-a@0/spec/*/*", "dep-a@0/spec/*/1");
    assertThat(rows.get("dep-a@0/spec/*/*").getEvents()).isEqualTo(2);
    assertThat(rows.get("dep-a@0/spec/*/*").getCycles()).isEqualTo(160);
  }

  @Test
  void aBlankDeploymentIdIsDeadLettered() {
    h.send(full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1));
    h.send(full("", 20, 5, 3.0, 10, 15, 20.0, 1.0, 1.0, 1)); // key "" equals its deploymentId
    h.send(full("  ", 21, 5, 3.0, 10, 15, 20.0, 1.0, 1.0, 1));
    h.send(full("dep-a", 95, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1)); // closes [0s, 60s)

    List<KeyValue<String, DeadLetter>> letters = h.deadLetters.readKeyValuesToList();
    assertThat(letters).hasSize(2);
    assertThat(letters)
        .allSatisfy(
            l -> {
              assertThat(l.value.getStage()).isEqualTo("streams.process");
              assertThat(l.value.getErrorMessage()).startsWith("blank deploymentId");
            });
    assertThat(h.rows()).containsOnlyKeys("dep-a@0/spec/*/*", "dep-a@0/spec/*/1");
  }

  @Test
  void anEventFarAheadOfItsIngestTimeIsDeadLetteredAndMovesNoStreamTime() {
    h.send(full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1));
    // dep-b's shipper has a wrong --log-zone: a line read at T0+20s is stamped 8 hours later
    DecodeEvent ahead =
        DecodeEvent.newBuilder(full("dep-b", 8 * 3600 + 20, 5, 3.0, 10, 15, 20.0, 1.0, 1.0, 1))
            .setIngestTime(TestEvents.T0.plusSeconds(20))
            .build();
    h.send(ahead);
    // had stream time moved to T0+8h, this event would be late and [0s, 60s) already closed
    h.send(full("dep-a", 50, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 1));
    // 14 minutes ahead of its ingest time: within the default 15m, counted
    h.send(
        DecodeEvent.newBuilder(full("dep-c", 14 * 60 + 30, 10, 2.0, 10, 30, 20.0, 1.0, 1.0, 1))
            .setIngestTime(TestEvents.T0.plusSeconds(30))
            .build());
    h.send(full("dep-c", 16 * 60, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1)); // closes both

    List<KeyValue<String, DeadLetter>> letters = h.deadLetters.readKeyValuesToList();
    assertThat(letters).hasSize(1);
    DeadLetter d = letters.get(0).value;
    assertThat(d.getStage()).isEqualTo("streams.process");
    assertThat(d.getOffset()).isEqualTo(1L);
    assertThat(d.getErrorClass()).isEqualTo(InvalidEventException.class.getName());
    assertThat(d.getErrorMessage())
        .contains("lies PT8H ahead of its ingestTime 2026-01-01T00:00:20Z")
        .contains("max-event-ahead PT15M")
        .contains("host 'gpu-1'");
    assertThat(h.eventSerde.deserializer().deserialize(TopologyHarness.IN, bytes(d)))
        .as("raw bytes replay to the original event")
        .isEqualTo(ahead);

    var rows = h.rows();
    assertThat(rows.keySet()).noneMatch(k -> k.startsWith("dep-b@"));
    WindowResult a = rows.get("dep-a@0/spec/*/*");
    assertThat(a.getEvents()).as("both dep-a events counted").isEqualTo(2);
    assertThat(a.getCycles()).isEqualTo(160);
    assertThat(a.getLateEvents()).isZero();
    assertThat(rows.get("dep-c@840/spec/*/*").getEvents()).isEqualTo(1);
  }

  private static byte[] bytes(DeadLetter d) {
    byte[] b = new byte[d.getRaw().remaining()];
    d.getRaw().duplicate().get(b);
    return b;
  }
}
