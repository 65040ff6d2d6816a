package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.WindowResult;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WindowAccumulatorSerdeTest {
  private final WindowAccumulatorSerde serde = new WindowAccumulatorSerde();

  private static WindowAccumulator sample() {
    return WindowAccumulator.empty()
        .add(full("d", 1, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1))
        .add(TestEvents.event("d", 2).setGenThroughputTokS(90.0).build())
        .add(
            TestEvents.event("d", 3)
                .setCycles(10L)
                .setPerPositionAccepted(java.util.List.of(7L, 3L))
                .setDraftMs(4.5)
                .setVerifyMs(18.0)
                .setCycleMs(25.0)
                .setAcceptLength(2.0)
                .build());
  }

  @Test
  void roundTripsEveryField() {
    WindowAccumulator a = sample().addLate().addLate();
    byte[] bytes = serde.serializer().serialize("t", a);
    assertThat(bytes[0]).isEqualTo(WindowAccumulatorSerde.VERSION_4);
    WindowAccumulator back = serde.deserializer().deserialize("t", bytes);
    assertThat(back).isEqualTo(a);
    assertThat(back.lateEvents()).isEqualTo(2);
    assertThat(back.toResult("d", 0, 60_000)).isEqualTo(a.toResult("d", 0, 60_000));
    assertThat(back.toResult("d", 0, 60_000).getLateEvents()).isEqualTo(2);
    assertThat(serde.serializer().serialize("t", null)).isNull();
    assertThat(serde.deserializer().deserialize("t", null)).isNull();
  }

  @Test
  void roundTripsAnEmptyAccumulatorWithoutSketches() {
    WindowAccumulator empty = WindowAccumulator.empty();
    byte[] bytes = serde.serializer().serialize("t", empty);
    assertThat(bytes).hasSize(1 + 15 * 8 + 4 + 8 + 4 * 4 + 8);
    assertThat(serde.deserializer().deserialize("t", bytes)).isEqualTo(empty);
  }

  @Test
  void readsAVersion1Blob() {
    // a v1 blob as the previous release wrote it: version byte and the 15 sums, nothing else
    java.nio.ByteBuffer v1 = java.nio.ByteBuffer.allocate(1 + 15 * 8);
    v1.put((byte) 1);
    v1.putLong(2).putLong(160); // events, cycles
    v1.putDouble(440.0).putLong(160); // tau sum, tau cycles
    v1.putLong(280).putLong(480); // accepted, drafted
    v1.putDouble(3600.0).putLong(160); // cycle ms sum, cycles
    v1.putDouble(390000.0).putDouble(5000.0).putLong(2); // timed throughput
    v1.putDouble(0.0).putLong(0); // untimed throughput
    v1.putDouble(400.0).putLong(160); // batch size
    WindowAccumulator a = serde.deserializer().deserialize("t", v1.array());
    assertThat(a.events).isEqualTo(2);
    assertThat(a.meanAcceptLength()).isEqualTo(2.75);
    assertThat(a.meanCycleMs()).isEqualTo(22.5);
    assertThat(a.batchTokS()).isEqualTo(78.0);
    assertThat(a.meanBatchSize()).isEqualTo(2.5);
    assertThat(a.perPositionAcceptance()).isEmpty();
    assertThat(a.toResult("d", 0, 1).getCycleMsP50()).isNull();
    assertThat(WindowAccumulatorSerde.writeV1(a)).isEqualTo(v1.array());
    // it keeps accumulating and is written back as v4
    a.add(TestEvents.event("d", 4).setCycles(1L).setCycleMs(9.0).build());
    WindowAccumulator back =
        serde.deserializer().deserialize("t", serde.serializer().serialize("t", a));
    assertThat(back).isEqualTo(a);
    assertThat(back.toResult("d", 0, 1).getCycleMsP50()).isCloseTo(9.0, ExactQuantiles.BOUND);
  }

  /**
   * A v3 blob as the KLL release wrote it: the v1 sums, per-position data, four KLL k=200 sketches
   * ({@code toByteArray()}, length-prefixed, empty for no value) and lateEvents; v2 lacks the last
   * long.
   */
  static byte[] legacyKllBlob(WindowAccumulator a, double[][] values, long[] weights, boolean v3) {
    byte[][] sketches = new byte[4][];
    for (int s = 0; s < 4; s++) {
      KllDoublesSketch kll = KllDoublesSketch.newHeapInstance(200);
      for (int i = 0; i < weights.length; i++) {
        if (!Double.isNaN(values[s][i])) {
          kll.update(values[s][i], weights[i]);
        }
      }
      sketches[s] = kll.isEmpty() ? new byte[0] : kll.toByteArray();
    }
    ByteBuffer b = ByteBuffer.allocate(4096);
    b.put(v3 ? WindowAccumulatorSerde.VERSION_3 : WindowAccumulatorSerde.VERSION_2);
    b.put(WindowAccumulatorSerde.writeV1(a), 1, 15 * 8);
    b.putInt(a.perPositionAccepted.length);
    for (double accepted : a.perPositionAccepted) {
      b.putDouble(accepted);
    }
    b.putLong(a.perPositionCycles);
    for (byte[] sketch : sketches) {
      b.putInt(sketch.length).put(sketch);
    }
    if (v3) {
      b.putLong(a.lateEvents);
    }
    return Arrays.copyOf(b.array(), b.position());
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void readsKllBlobsOfVersions2And3AsDdSketches(boolean v3) {
    WindowAccumulator a = sample().addLate();
    // sample()'s draft, verify, cycle ms and accept length per event (NaN: none) and its cycles
    double nan = Double.NaN;
    double[][] values = {{nan, nan, 4.5}, {nan, nan, 18.0}, {30.0, nan, 25.0}, {2.0, nan, 2.0}};
    long[] weights = {40, 1, 10};
    byte[] legacy = legacyKllBlob(a, values, weights, v3);
    assertThat(legacy[0]).isEqualTo(v3 ? (byte) 3 : (byte) 2);
    WindowAccumulator back = serde.deserializer().deserialize("t", legacy);
    assertThat(back.lateEvents()).isEqualTo(v3 ? 1 : 0);
    assertThat(back.cycles).isEqualTo(51);
    assertThat(back.perPositionAcceptance()).isEqualTo(a.perPositionAcceptance());
    // the KLL sketches held every item, so the converted DDSketches are those of the events
    assertThat(back.cycleMs).isEqualTo(a.cycleMs);
    assertThat(back.verifyMs).isEqualTo(a.verifyMs);
    assertThat(back.draftMs).isEqualTo(a.draftMs);
    assertThat(back.acceptLength).isEqualTo(a.acceptLength);
    WindowResult r = back.toResult("d", 0, 60_000);
    // cycle ms: 25 x10, 30 x40 of 50 -> p50 (rank 25) 30; p05 (rank 2.5) 25
    assertThat(r.getCycleMsP50()).isCloseTo(30.0, ExactQuantiles.BOUND);
    assertThat(back.cycleMs.quantile(0.05)).isCloseTo(25.0, ExactQuantiles.BOUND);
    assertThat(r.getVerifyMsP99()).isCloseTo(18.0, ExactQuantiles.BOUND);
    assertThat(r.getDraftMsP50()).isCloseTo(4.5, ExactQuantiles.BOUND);
    assertThat(r.getAcceptLengthP95()).isCloseTo(2.0, ExactQuantiles.BOUND);
    // and it is written back as v4
    byte[] again = serde.serializer().serialize("t", back);
    assertThat(again[0]).isEqualTo(WindowAccumulatorSerde.VERSION_4);
    assertThat(serde.deserializer().deserialize("t", again)).isEqualTo(back);
  }

  @Test
  void rejectsCorruptDdSketchBytes() {
    WindowAccumulator a = sample();
    byte[] bytes = serde.serializer().serialize("t", a);
    // the last sketch (accept length) ends 8 bytes (lateEvents) before the end: garble its bytes
    for (int i = bytes.length - 8 - 6; i < bytes.length - 8; i++) {
      bytes[i] = (byte) 0xff;
    }
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", bytes))
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void rejectsCorruptVersion3Bytes() {
    byte[] bytes = serde.serializer().serialize("t", sample());
    byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", longer))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("trailing");
    byte[] shorter = java.util.Arrays.copyOf(bytes, bytes.length - 3);
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", shorter))
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void rejectsUnknownVersionAndTruncatedBytes() {
    byte[] bytes = serde.serializer().serialize("t", sample());
    bytes[0] = 9;
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("version 9");
    byte[] truncated = java.util.Arrays.copyOf(serde.serializer().serialize("t", sample()), 20);
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", truncated))
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void mergeIsTheSumOfParts() {
    WindowAccumulator x =
        WindowAccumulator.empty().add(full("d", 1, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1));
    WindowAccumulator y =
        WindowAccumulator.empty().add(full("d", 2, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 3));
    WindowAccumulator both =
        WindowAccumulator.empty()
            .add(full("d", 1, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1))
            .add(full("d", 2, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 3));
    assertThat(x.merge(y)).isEqualTo(both);
    assertThat(y.merge(x).merge(WindowAccumulator.empty())).isEqualTo(both);
    assertThat(both.meanAcceptLength()).isEqualTo((2.0 * 40 + 3.0 * 120) / 160);
  }

  @Test
  void nanInputsCountAsMissing() {
    WindowAccumulator a =
        WindowAccumulator.empty()
            .add(
                TestEvents.event("d", 1)
                    .setAcceptLength(Double.NaN)
                    .setCycleMs(Double.NaN)
                    .build());
    assertThat(a.events).isEqualTo(1);
    assertThat(a.meanAcceptLength()).isNull();
    assertThat(a.meanCycleMs()).isNull();
    assertThat(a.batchTokS()).isNull();
  }
}
