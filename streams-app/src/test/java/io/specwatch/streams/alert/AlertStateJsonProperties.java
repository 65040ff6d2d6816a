package io.specwatch.streams.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.common.serialization.Serde;

/**
 * {@link AlertStateJson} writes the bytes Jackson wrote for the alert states (the old path, and
 * what the changelogs of earlier releases hold), over random states: any long, doubles of every
 * magnitude, -0.0, integral values, nulls, non-finite values (Jackson's fallback) and lists of any
 * length; the bytes read back to the same state.
 */
class AlertStateJsonProperties {
  private static final Serde<Hysteresis.State> HYSTERESIS_OLD =
      new JsonStateSerde<>(Hysteresis.State.class);
  private static final Serde<Hysteresis.State> HYSTERESIS_NEW =
      new JsonStateSerde<>(Hysteresis.State.class, AlertStateJson::hysteresis);
  private static final Serde<LastSeen> LAST_SEEN_OLD = new JsonStateSerde<>(LastSeen.class);
  private static final Serde<LastSeen> LAST_SEEN_NEW =
      new JsonStateSerde<>(LastSeen.class, AlertStateJson::lastSeen);
  private static final Serde<RegressionDetector.State> REGRESSION_OLD =
      new JsonStateSerde<>(RegressionDetector.State.class);
  private static final Serde<RegressionDetector.State> REGRESSION_NEW =
      new JsonStateSerde<>(RegressionDetector.State.class, AlertStateJson::regression);

  @Property(tries = 500)
  void handWrittenJsonIsJacksonsJson(@ForAll long seed) {
    Random r = new Random(seed);
    Hysteresis.State h = hysteresis(r);
    assertSame(HYSTERESIS_OLD, HYSTERESIS_NEW, h);
    LastSeen seen = new LastSeen(anyLong(r), anyLong(r), anyLong(r), r.nextBoolean());
    assertSame(LAST_SEEN_OLD, LAST_SEEN_NEW, seen);
    boolean nonFinite = r.nextInt(10) == 0;
    RegressionDetector.State s =
        new RegressionDetector.State(
            points(r, nonFinite), points(r, nonFinite), points(r, nonFinite), h, r.nextInt());
    assertSame(REGRESSION_OLD, REGRESSION_NEW, s);
  }

  private static <T> void assertSame(Serde<T> old, Serde<T> hand, T value) {
    byte[] expected = old.serializer().serialize("changelog", value);
    byte[] actual = hand.serializer().serialize("changelog", value);
    assertThat(new String(actual, StandardCharsets.UTF_8))
        .isEqualTo(new String(expected, StandardCharsets.UTF_8));
    assertThat(actual).isEqualTo(expected);
    assertThat(hand.deserializer().deserialize("changelog", actual)).isEqualTo(value);
  }

  private static Hysteresis.State hysteresis(Random r) {
    return new Hysteresis.State(r.nextBoolean(), r.nextInt(), r.nextInt(50), anyLong(r));
  }

  private static List<RegressionDetector.MetricPoint> points(Random r, boolean nonFinite) {
    int n = r.nextInt(4) == 0 ? 0 : r.nextInt(40);
    List<RegressionDetector.MetricPoint> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          new RegressionDetector.MetricPoint(
              anyLong(r),
              anyLong(r),
              number(r, nonFinite),
              number(r, nonFinite),
              number(r, nonFinite),
              number(r, nonFinite)));
    }
    return out;
  }

  private static long anyLong(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> r.nextLong();
      case 1 -> Long.MIN_VALUE + r.nextInt(2);
      case 2 -> 1_772_409_600_000L + r.nextInt(1_000_000_000);
      default -> r.nextInt(100) - 50;
    };
  }

  private static Double number(Random r, boolean nonFinite) {
    return switch (r.nextInt(nonFinite ? 10 : 9)) {
      case 0 -> null;
      case 1 -> -0.0;
      case 2 -> (double) (r.nextInt(2_000) - 1_000);
      case 3 -> Double.longBitsToDouble(r.nextLong() & 0x7fefffffffffffffL); // any finite
      case 4 -> r.nextDouble() * 1e-7;
      case 5 -> r.nextDouble() * 1e9;
      case 6 -> Double.MIN_VALUE * (1 + r.nextInt(5));
      case 7 -> -r.nextGaussian() * 40;
      case 8 -> r.nextDouble() * 100;
      default -> r.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY;
    };
  }
}
