package io.specwatch.streams.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.streams.alert.RegressionDetector.MetricPoint;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * What makes {@link HeapStateCache} invisible: the JSON round trip of every cached state type is
 * lossless (so the heap copy equals what the store would return), and the cache writes through.
 */
class HeapStateCacheTest {

  @Property(tries = 300)
  void jsonRoundTripOfTheCachedStatesIsLossless(@ForAll long seed) {
    Random r = new Random(seed);
    RegressionDetector.State regression =
        new RegressionDetector.State(
            points(r), points(r), points(r), hysteresis(r), r.nextInt(1000));
    Hysteresis.State hysteresis = hysteresis(r);
    LastSeen seen = new LastSeen(r.nextLong(), r.nextLong(), r.nextLong(), r.nextBoolean());

    assertThat(roundTrip(regression, RegressionDetector.State.class)).isEqualTo(regression);
    assertThat(roundTrip(hysteresis, Hysteresis.State.class)).isEqualTo(hysteresis);
    assertThat(roundTrip(seen, LastSeen.class)).isEqualTo(seen);
  }

  @Test
  void writesThroughAndReadsWhatWasPut() {
    Map<String, LastSeen> map = new HashMap<>();
    HeapStateCache<LastSeen> cache = new HeapStateCache<>(mapStore(map), 2);
    LastSeen a = new LastSeen(1, 2, 3, false);
    LastSeen b = new LastSeen(4, 5, 6, true);
    cache.put("a", a);
    cache.put("b", b);
    cache.put("c", a);
    assertThat(map).containsEntry("a", a).containsEntry("b", b).containsEntry("c", a);
    // "a" left the heap (2 entries at most) and is read back from the store
    map.put("a", b);
    assertThat(cache.get("a")).isEqualTo(b);
    assertThat(cache.get("c")).isEqualTo(a);
    cache.clear();
    map.put("c", b);
    assertThat(cache.get("c")).isEqualTo(b);
  }

  /** A store over {@code map}: get and put only (all this cache calls). */
  @SuppressWarnings("unchecked")
  private static <V> KeyValueStore<String, V> mapStore(Map<String, V> map) {
    return (KeyValueStore<String, V>)
        Proxy.newProxyInstance(
            HeapStateCacheTest.class.getClassLoader(),
            new Class<?>[] {KeyValueStore.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "get" -> map.get((String) args[0]);
                  case "put" -> map.put((String) args[0], (V) args[1]);
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private static <T> T roundTrip(T value, Class<T> type) {
    JsonStateSerde<T> serde = new JsonStateSerde<>(type);
    return serde.deserializer().deserialize("t", serde.serializer().serialize("t", value));
  }

  private static Hysteresis.State hysteresis(Random r) {
    return new Hysteresis.State(r.nextBoolean(), r.nextInt(50), r.nextInt(50), r.nextLong());
  }

  private static Double maybe(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> null;
      case 1 -> r.nextDouble() * 1e-300;
      case 2 -> -r.nextGaussian() * 1e6;
      default -> r.nextDouble() * 100;
    };
  }

  private static List<MetricPoint> points(Random r) {
    List<MetricPoint> list = new ArrayList<>();
    for (int i = r.nextInt(6); i > 0; i--) {
      list.add(new MetricPoint(r.nextLong(), r.nextLong(), maybe(r), maybe(r), maybe(r), maybe(r)));
    }
    return list;
  }
}
