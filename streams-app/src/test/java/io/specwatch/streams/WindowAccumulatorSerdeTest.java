package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class WindowAccumulatorSerdeTest {
  private final WindowAccumulatorSerde serde = new WindowAccumulatorSerde();

  private static WindowAccumulator sample() {
    return WindowAccumulator.empty()
        .add(full("d", 1, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1))
        .add(TestEvents.event("d", 2).setGenThroughputTokS(90.0).build());
  }

  @Test
  void roundTripsEveryField() {
    WindowAccumulator a = sample();
    byte[] bytes = serde.serializer().serialize("t", a);
    assertThat(bytes[0]).isEqualTo(WindowAccumulatorSerde.VERSION_1);
    WindowAccumulator back = serde.deserializer().deserialize("t", bytes);
    assertThat(back).isEqualTo(a);
    assertThat(back.toResult("d", 0, 60_000)).isEqualTo(a.toResult("d", 0, 60_000));
    assertThat(serde.serializer().serialize("t", null)).isNull();
    assertThat(serde.deserializer().deserialize("t", null)).isNull();
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
