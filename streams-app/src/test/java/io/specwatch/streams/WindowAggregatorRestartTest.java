package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;

/**
 * The window aggregator's state is its event log and progress store only: a new processor instance
 * over the same stores (what a restart or a task migration gets after the changelog restore, the
 * heap cache empty) continues with exactly the results of an uninterrupted run: no window lost,
 * none emitted twice, no event counted twice. Also with a cache of one window (every other window
 * is rebuilt from the log on each event).
 */
class WindowAggregatorRestartTest {
  private static final Duration SIZE = Duration.ofMinutes(1);
  private static final Duration GRACE = Duration.ofSeconds(10);

  /** Events of two deployments over three windows, in arrival order (some out of order). */
  private static List<DecodeEvent> input() {
    List<DecodeEvent> events = new ArrayList<>();
    long[] seconds = {1, 5, 30, 58, 62, 40, 65, 90, 100, 119, 125, 150, 185, 200};
    for (int i = 0; i < seconds.length; i++) {
      String dep = i % 2 == 0 ? "dep-a" : "dep-b";
      events.add(
          full(dep, seconds[i], 10 + i, 1.5 + i * 0.1, 20 + i, 40 + i, 20.0 + i, 100, 1000, 3));
    }
    return events;
  }

  private static final class Run {
    final MockProcessorContext<String, WindowResult> context;
    final WindowStore<String, byte[]> events =
        Stores.windowStoreBuilder(
                Stores.inMemoryWindowStore(
                    TopologyNames.WINDOW_EVENTS_STORE,
                    SIZE.multipliedBy(2).plus(GRACE),
                    SIZE,
                    true),
                Serdes.String(),
                Serdes.ByteArray())
            .withLoggingDisabled()
            .build();
    final KeyValueStore<String, Long> progress =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(TopologyNames.WINDOW_PROGRESS_STORE),
                Serdes.String(),
                Serdes.Long())
            .withLoggingDisabled()
            .build();
    final List<WindowResult> emitted = new ArrayList<>();
    WindowAggregator processor;

    Run(int cacheWindows) {
      Properties config = new Properties();
      config.put(StreamsConfig.APPLICATION_ID_CONFIG, "window-aggregator-restart-test");
      config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
      config.put(WindowAggregator.CACHE_CONFIG, String.valueOf(cacheWindows));
      context = new MockProcessorContext<>(config);
      events.init(context.getStateStoreContext(), events);
      progress.init(context.getStateStoreContext(), progress);
      context.addStateStore(events);
      context.addStateStore(progress);
      restart();
    }

    /** A new processor instance over the same stores (its heap state is gone). */
    void restart() {
      collect();
      processor = new WindowAggregator(SIZE, GRACE);
      processor.init(context);
    }

    void send(DecodeEvent e) {
      processor.process(
          new Record<>(
              e.getDeploymentId(), new WindowInput(e, false), e.getEventTime().toEpochMilli()));
      collect();
    }

    private void collect() {
      context.forwarded().forEach(f -> emitted.add(f.record().value()));
      context.resetForwards();
    }
  }

  private static Map<String, WindowResult> byRow(List<WindowResult> rows) {
    Map<String, WindowResult> m = new TreeMap<>();
    for (WindowResult r : rows) {
      String key =
          r.getDeploymentId()
              + "@"
              + r.getWindowStart()
              + "/"
              + r.getSpecEnabled()
              + "/"
              + r.getPromptCategory()
              + "/"
              + r.getBatchBucket();
      assertThat(m.put(key, r)).as("row %s emitted once", key).isNull();
    }
    return m;
  }

  @Test
  void restartsAtEveryPointGiveTheUninterruptedResults() {
    List<DecodeEvent> events = input();
    Run reference = new Run(WindowAggregator.DEFAULT_CACHE_WINDOWS);
    events.forEach(reference::send);
    Map<String, WindowResult> expected = byRow(reference.emitted);
    // windows [0,60) and [60,120) of both deployments closed (stream time 200 s - 10 s grace)
    assertThat(expected.keySet())
        .anyMatch(k -> k.startsWith("dep-a@" + T0))
        .anyMatch(k -> k.startsWith("dep-b@" + T0.plusSeconds(60)))
        .noneMatch(k -> k.contains("@" + T0.plusSeconds(180)));
    assertThat(expected.get("dep-a@" + T0 + "/true/*/*").getEvents()).isEqualTo(2); // 1, 30 s
    // 5, 58 s, and 40 s arriving after 62 s (out of order, inside the grace)
    assertThat(expected.get("dep-b@" + T0 + "/true/*/*").getEvents()).isEqualTo(3);

    for (int cache : new int[] {1, WindowAggregator.DEFAULT_CACHE_WINDOWS}) {
      for (int split = 1; split < events.size(); split++) {
        Run run = new Run(cache);
        for (int i = 0; i < events.size(); i++) {
          if (i == split) {
            run.restart();
          }
          run.send(events.get(i));
        }
        assertThat(byRow(run.emitted))
            .as("cache %d, restart before event %d", cache, split)
            .isEqualTo(expected);
      }
    }
  }

  /**
   * The input of {@link #input()}, dep-a's events with ingest's id form (32 lowercase hex chars,
   * packed into 16 bytes in the log), dep-b's with UUID text ids (kept as text).
   */
  private static List<DecodeEvent> mixedIdInput() {
    List<DecodeEvent> events = new ArrayList<>();
    int i = 0;
    for (DecodeEvent e : input()) {
      events.add(
          e.getDeploymentId().equals("dep-a")
              ? DecodeEvent.newBuilder(e).setEventId(String.format("%032x", 0xabcdefL + i)).build()
              : e);
      i++;
    }
    assertThat(events.get(0).getEventId()).matches("[0-9a-f]{32}");
    assertThat(events.get(1).getEventId()).hasSize(36);
    return events;
  }

  /** The events among the first {@code n} whose window is still open after them. */
  private static List<DecodeEvent> stillOpen(List<DecodeEvent> events, int n) {
    long streamTime = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      streamTime = Math.max(streamTime, events.get(i).getEventTime().toEpochMilli());
    }
    long closeTime = streamTime - GRACE.toMillis();
    List<DecodeEvent> open = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long t = events.get(i).getEventTime().toEpochMilli();
      long start = t - Math.floorMod(t, SIZE.toMillis());
      if (start + SIZE.toMillis() > closeTime) {
        open.add(events.get(i));
      }
    }
    return open;
  }

  @Test
  void reSentEventsCountOnceInTheirWindowBeforeAndAfterARestart() {
    List<DecodeEvent> events = mixedIdInput();
    Run reference = new Run(WindowAggregator.DEFAULT_CACHE_WINDOWS);
    events.forEach(reference::send);
    Map<String, WindowResult> expected = byRow(reference.emitted);
    assertThat(expected).isNotEmpty();

    long reSent = 0;
    long dropped = WindowAggregator.duplicates();
    for (int cache : new int[] {1, WindowAggregator.DEFAULT_CACHE_WINDOWS}) {
      for (int split = 1; split < events.size(); split++) {
        Run run = new Run(cache);
        for (int i = 0; i < split; i++) {
          run.send(events.get(i));
          run.send(events.get(i)); // delivered twice in a row
        }
        List<DecodeEvent> again = stillOpen(events, split);
        again.forEach(run::send); // re-sent before the restart
        run.restart();
        again.forEach(run::send); // and after it (a shipper re-sending after its checkpoint)
        for (int i = split; i < events.size(); i++) {
          run.send(events.get(i));
        }
        reSent += split + 2L * again.size();
        assertThat(byRow(run.emitted))
            .as("cache %d, duplicates around a restart before event %d", cache, split)
            .isEqualTo(expected);
      }
    }
    assertThat(WindowAggregator.duplicates() - dropped).isEqualTo(reSent);
  }

  @Test
  void aReplayedLogWithRepeatedIdsCountsEachIdOnce() {
    List<DecodeEvent> events = mixedIdInput();
    Run reference = new Run(WindowAggregator.DEFAULT_CACHE_WINDOWS);
    events.forEach(reference::send);
    Map<String, WindowResult> expected = byRow(reference.emitted);

    for (int cache : new int[] {1, WindowAggregator.DEFAULT_CACHE_WINDOWS}) {
      Run run = new Run(cache);
      for (int i = 0; i < 4; i++) {
        run.send(events.get(i));
      }
      // entries a version without the id check logged twice (dep-a's hex id, dep-b's text id)
      for (DecodeEvent e : List.of(events.get(2), events.get(3))) {
        long t = e.getEventTime().toEpochMilli();
        run.events.put(
            e.getDeploymentId(),
            WindowEventCodec.write(new WindowInput(e, false), t),
            t - Math.floorMod(t, SIZE.toMillis()));
      }
      run.restart();
      for (int i = 4; i < events.size(); i++) {
        run.send(events.get(i));
      }
      assertThat(byRow(run.emitted)).as("cache %d", cache).isEqualTo(expected);
    }
  }

  @Test
  void afterARestartAnEventOfAnAlreadyClosedWindowCountsAsLate() {
    Run run = new Run(WindowAggregator.DEFAULT_CACHE_WINDOWS);
    run.send(full("dep-a", 10, 10, 2.0, 20, 40, 20.0, 100, 1000, 3));
    run.send(full("dep-a", 75, 10, 2.0, 20, 40, 20.0, 100, 1000, 3)); // closes [0, 60)
    assertThat(run.emitted).isNotEmpty().allMatch(r -> r.getWindowStart().equals(T0));
    run.emitted.clear();
    run.restart();
    // the router's stream time started over, so it did not flag this one: [0, 60) closed here
    run.send(full("dep-a", 20, 10, 2.0, 20, 40, 20.0, 100, 1000, 3));
    run.send(full("dep-a", 140, 10, 2.0, 20, 40, 20.0, 100, 1000, 3)); // closes [60, 120)
    Map<String, WindowResult> rows = byRow(run.emitted);
    assertThat(rows.keySet()).allMatch(k -> k.contains("@" + T0.plusSeconds(60)));
    WindowResult total = rows.get("dep-a@" + T0.plusSeconds(60) + "/true/*/*");
    assertThat(total.getEvents()).isEqualTo(1);
    assertThat(total.getLateEvents()).isEqualTo(1);
  }

  @Test
  void aBadCacheSettingFailsNamingIt() {
    assertThat(WindowAggregator.cacheWindows(null))
        .isEqualTo(WindowAggregator.DEFAULT_CACHE_WINDOWS);
    assertThat(WindowAggregator.cacheWindows(" 12 ")).isEqualTo(12);
    assertThatThrownBy(() -> WindowAggregator.cacheWindows("0"))
        .hasMessageContaining(WindowAggregator.CACHE_CONFIG);
    assertThatThrownBy(() -> WindowAggregator.cacheWindows("lots"))
        .hasMessageContaining(WindowAggregator.CACHE_CONFIG);
  }
}
