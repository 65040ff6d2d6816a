package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams reuses a task's processor instances: after an aborted exactly-once transaction the
 * task is closed dirty, its stores are wiped and restored from the changelog (the last committed
 * state) and {@code init()} is called again on the SAME {@link WindowAggregator} (StreamTask.revive
 * -> initializeTopology). The input after the last commit is then processed again. Whatever the
 * aggregator kept on the heap from the aborted part (open windows, stream time, the close mark)
 * must not survive that init: the committed output plus the output after the revive must be exactly
 * the uninterrupted run's rows. (A stale close mark dropped every window emitted in the aborted
 * transaction: ScaleOutIT saw them missing after a kill -9 of the other instance.)
 */
class WindowAggregatorReviveTest {
  private static final Duration SIZE = Duration.ofMinutes(1);
  private static final Duration GRACE = Duration.ofSeconds(10);

  private static List<DecodeEvent> input() {
    List<DecodeEvent> events = new ArrayList<>();
    long[] seconds = {1, 5, 30, 58, 62, 40, 65, 90, 100, 119, 125, 150, 185, 200, 250, 251, 320};
    for (int i = 0; i < seconds.length; i++) {
      String dep = i % 3 == 0 ? "dep-a" : i % 3 == 1 ? "dep-b" : "dep-c";
      events.add(
          full(dep, seconds[i], 10 + i, 1.5 + i * 0.1, 20 + i, 40 + i, 20.0 + i, 100, 1000, 3));
    }
    return events;
  }

  /** The task's stores and context; rebuilt from a snapshot to model the changelog restore. */
  private static final class Task {
    final MockProcessorContext<String, WindowResult> context;
    final WindowStore<String, byte[]> events = eventsStore();
    final KeyValueStore<String, Long> progress = progressStore();

    Task() {
      Properties config = new Properties();
      config.put(StreamsConfig.APPLICATION_ID_CONFIG, "window-aggregator-revive-test");
      config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
      context = new MockProcessorContext<>(config);
      events.init(context.getStateStoreContext(), events);
      progress.init(context.getStateStoreContext(), progress);
      context.addStateStore(events);
      context.addStateStore(progress);
    }

    /** A new task state holding exactly what {@code committed} held (the restore). */
    static Task restoredFrom(Task committed) {
      Task t = new Task();
      try (KeyValueIterator<Windowed<String>, byte[]> it = committed.events.all()) {
        while (it.hasNext()) {
          KeyValue<Windowed<String>, byte[]> kv = it.next();
          t.events.put(kv.key.key(), kv.value, kv.key.window().start());
        }
      }
      try (KeyValueIterator<String, Long> it = committed.progress.all()) {
        it.forEachRemaining(kv -> t.progress.put(kv.key, kv.value));
      }
      return t;
    }

    List<WindowResult> send(WindowAggregator processor, DecodeEvent e) {
      processor.process(
          new Record<>(
              e.getDeploymentId(), new WindowInput(e, false), e.getEventTime().toEpochMilli()));
      List<WindowResult> out = new ArrayList<>();
      context.forwarded().forEach(f -> out.add(f.record().value()));
      context.resetForwards();
      return out;
    }
  }

  private static WindowStore<String, byte[]> eventsStore() {
    return Stores.windowStoreBuilder(
            Stores.inMemoryWindowStore(
                TopologyNames.WINDOW_EVENTS_STORE, SIZE.multipliedBy(2).plus(GRACE), SIZE, true),
            Serdes.String(),
            Serdes.ByteArray())
        .withLoggingDisabled()
        .build();
  }

  private static KeyValueStore<String, Long> progressStore() {
    return Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(TopologyNames.WINDOW_PROGRESS_STORE),
            Serdes.String(),
            Serdes.Long())
        .withLoggingDisabled()
        .build();
  }

  private static Map<String, Long> byRow(List<WindowResult> rows) {
    Map<String, Long> m = new TreeMap<>();
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
      assertThat(m.put(key, r.getEvents() * 1000 + r.getLateEvents()))
          .as("row %s emitted once", key)
          .isNull();
    }
    return m;
  }

  @Test
  void aReviveAfterAnAbortedTransactionGivesTheUninterruptedRows() {
    List<DecodeEvent> events = input();
    Task reference = new Task();
    WindowAggregator uninterrupted = new WindowAggregator(SIZE, GRACE);
    uninterrupted.init(reference.context);
    List<WindowResult> all = new ArrayList<>();
    events.forEach(e -> all.addAll(reference.send(uninterrupted, e)));
    Map<String, Long> expected = byRow(all);
    assertThat(expected).hasSizeGreaterThan(6);

    for (int committedUpTo = 1; committedUpTo < events.size(); committedUpTo++) {
      for (int abortedUpTo = committedUpTo + 1; abortedUpTo <= events.size(); abortedUpTo += 3) {
        Task task = new Task();
        WindowAggregator processor = new WindowAggregator(SIZE, GRACE);
        processor.init(task.context);
        List<WindowResult> committed = new ArrayList<>();
        for (int i = 0; i < committedUpTo; i++) {
          committed.addAll(task.send(processor, events.get(i)));
        }
        Task restored = Task.restoredFrom(task); // the changelog as of the last commit
        for (int i = committedUpTo; i < abortedUpTo; i++) {
          task.send(processor, events.get(i)); // output and store writes of the aborted txn
        }
        // revive: same processor instance, restored stores, the input after the commit again
        processor.close();
        processor.init(restored.context);
        for (int i = committedUpTo; i < events.size(); i++) {
          committed.addAll(restored.send(processor, events.get(i)));
        }
        assertThat(byRow(committed))
            .as("committed up to event %d, aborted up to %d", committedUpTo, abortedUpTo)
            .isEqualTo(expected);
      }
    }
  }
}
