package io.specwatch.streams;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.specwatch.schemas.WindowResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Tumbling event-time windows per deployment, emitted once on close (stream time - grace past the
 * window end), one {@link WindowResult} per breakdown row: what {@code groupByKey().windowedBy()
 * .emitStrategy(onWindowClose()).aggregate()} did, without rewriting the whole window value per
 * event.
 *
 * <p>State: an append-only <b>event log</b> ({@link TopologyNames#WINDOW_EVENTS_STORE}, a logged
 * RocksDB window store with duplicates kept): every input is written once, as a small entry ({@link
 * WindowEventCodec}) under (deploymentId, window start). It is the only source of truth and, being
 * a logged store written inside the task's transaction, restores exactly what the committed offsets
 * account for (exactly_once_v2). The aggregate itself ({@link DeploymentWindow}, KLL sketches
 * included) lives on the heap only, in an LRU cache of {@link #CACHE_CONFIG} windows per task: a
 * window that is not cached (evicted, or after a restart or a rebalance) is rebuilt by replaying
 * its entries. Nothing is serialized per event but the event itself; the sketches are never
 * serialized at all.
 *
 * <p>Progress: the close time up to which windows were emitted is kept in {@link
 * TopologyNames#WINDOW_PROGRESS_STORE} (one key per task, written when windows close), so after a
 * restart windows already emitted are not emitted again; the event log's segments expire after
 * {@code 2 x size + grace} of stream time (no tombstones).
 *
 * <p>Each event id counts at most once per window: the cached window keeps the ids it counted
 * ({@link EventIdSet}, ~21-32 bytes per id), an input whose id its window already holds (a re-send,
 * e.g. the lines after a killed shipper's last checkpoint) is dropped without being logged (counted
 * in {@value #DUPLICATES_METRIC}), and a replay of the log skips repeated ids too. A re-send
 * arriving after its window closed counts as a late event, like any late event.
 *
 * <p>An input whose window is already closed for this processor (only after a restart, when the
 * {@link LateEventRouter}'s stream time started over) counts as a late event of the open window,
 * like the router's late events.
 */
final class WindowAggregator implements Processor<String, WindowInput, String, WindowResult> {
  /** Streams property (pass with {@code -K}): deserialized windows kept per task. */
  static final String CACHE_CONFIG = "specwatch.window.cache.windows";

  static final int DEFAULT_CACHE_WINDOWS = 2048;

  /** Counter of inputs dropped as duplicates (Prometheus: {@code ..._total}). */
  static final String DUPLICATES_METRIC = "specwatch.streams.duplicate.events";

  private static final LongAdder DUPLICATES = new LongAdder();
  private static final String PROGRESS_KEY = "closed-until";

  private final long sizeMs;
  private final long graceMs;
  private ProcessorContext<String, WindowResult> context;
  private WindowStore<String, byte[]> events;
  private KeyValueStore<String, Long> progress;
  private final NavigableMap<Long, TreeSet<String>> open = new TreeMap<>();
  private Map<WindowKey, Agg> cache;
  private long observed = Long.MIN_VALUE;
  private long closedUntil = Long.MIN_VALUE;

  private record WindowKey(String deploymentId, long start) {}

  private static final class Agg {
    final DeploymentWindow window = DeploymentWindow.empty();
    final EventIdSet ids = new EventIdSet();
    long maxTimestamp = Long.MIN_VALUE;

    void add(WindowInput input, long timestamp) {
      window.add(input);
      maxTimestamp = Math.max(maxTimestamp, timestamp);
    }
  }

  WindowAggregator(Duration size, Duration grace) {
    this.sizeMs = size.toMillis();
    this.graceMs = grace.toMillis();
  }

  /**
   * The event log store: RocksDB window store, duplicates kept, no record cache, logged to a
   * changelog topic with {@code message.timestamp.type=LogAppendTime}. Its records carry event
   * times; in a replay of old logs those are days or months old, and with CreateTime the broker's
   * time retention (store retention + {@code windowstore.changelog.additional.retention.ms}, about
   * a day) deleted them at its next check (every 5 min), so a restore after a crash lost the open
   * windows (the fault suite's streams/broker kill -9 scenarios, 12-day-old event times). The
   * restore takes the window start from the record key, not from the record timestamp.
   */
  static StoreBuilder<WindowStore<String, byte[]>> eventsStore(Duration size, Duration grace) {
    return Stores.windowStoreBuilder(
            Stores.persistentWindowStore(
                TopologyNames.WINDOW_EVENTS_STORE, size.multipliedBy(2).plus(grace), size, true),
            Serdes.String(),
            Serdes.ByteArray())
        .withCachingDisabled()
        .withLoggingEnabled(CHANGELOG_CONFIG);
  }

  /** Topic settings of the event log's changelog (created by Kafka Streams). */
  static final Map<String, String> CHANGELOG_CONFIG =
      Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");

  /** The progress store (close time emitted up to). */
  static StoreBuilder<KeyValueStore<String, Long>> progressStore() {
    return Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(TopologyNames.WINDOW_PROGRESS_STORE),
            Serdes.String(),
            Serdes.Long())
        .withCachingDisabled();
  }

  @Override
  public void init(ProcessorContext<String, WindowResult> context) {
    this.context = context;
    this.events = context.getStateStore(TopologyNames.WINDOW_EVENTS_STORE);
    this.progress = context.getStateStore(TopologyNames.WINDOW_PROGRESS_STORE);
    int capacity = cacheWindows(context.appConfigs().get(CACHE_CONFIG));
    this.cache =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<WindowKey, Agg> eldest) {
            return size() > capacity;
          }
        };
    // Kafka Streams calls init() again on this same instance when it revives the task after an
    // aborted transaction (stores wiped and restored): nothing of the heap state may survive
    open.clear();
    observed = Long.MIN_VALUE;
    closedUntil = Long.MIN_VALUE;
    Long closed = progress.get(PROGRESS_KEY);
    if (closed != null) {
      closedUntil = closed;
      observed = closed + graceMs;
    }
    // rebuild the index of open windows (and the stream time) from the restored event log
    long from = closed == null ? 0L : Math.max(0L, closed - sizeMs + 1);
    try (KeyValueIterator<Windowed<String>, byte[]> it = events.fetchAll(from, Long.MAX_VALUE)) {
      while (it.hasNext()) {
        KeyValue<Windowed<String>, byte[]> kv = it.next();
        long start = kv.key.window().start();
        if (start + sizeMs > closedUntil) {
          open.computeIfAbsent(start, s -> new TreeSet<>()).add(kv.key.key());
          observed = Math.max(observed, WindowEventCodec.read(kv.value).timestamp());
        }
      }
    }
  }

  static int cacheWindows(Object value) {
    if (value == null) {
      return DEFAULT_CACHE_WINDOWS;
    }
    try {
      int n = Integer.parseInt(value.toString().strip());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "setting " + CACHE_CONFIG + " must be an integer >= 1, got '" + value + "'");
  }

  /**
   * Binds {@value #DUPLICATES_METRIC} to {@code registry}: inputs not counted because their window
   * already held their event id. Like the dead-letter counter it counts processing decisions: a
   * record whose transaction aborts is processed, and counted, again.
   */
  static void bindMetrics(MeterRegistry registry) {
    FunctionCounter.builder(DUPLICATES_METRIC, DUPLICATES, LongAdder::doubleValue)
        .description("events not counted again in a window that already held their event id")
        .register(registry);
  }

  /** Duplicates dropped so far in this JVM. */
  static long duplicates() {
    return DUPLICATES.sum();
  }

  @Override
  public void process(Record<String, WindowInput> record) {
    WindowInput input = record.value();
    String deployment = record.key();
    long timestamp = record.timestamp();
    long streamTime = Math.max(observed, timestamp);
    long closeTime = streamTime - graceMs;
    long start = windowStart(timestamp);
    if (start + sizeMs <= closeTime) {
      // its window already closed here (the router's stream time started over after a restart)
      input = new WindowInput(input.event(), true);
      timestamp = streamTime;
      start = windowStart(timestamp);
    }
    WindowKey key = new WindowKey(deployment, start);
    Agg agg = load(key);
    if (!agg.ids.add(input.event().getEventId())) {
      // the window already counted this event id (a re-send): not counted, not logged, and the
      // stream time stays what the log accounts for
      DUPLICATES.increment();
      cache.put(key, agg);
      return;
    }
    observed = streamTime;
    events.put(deployment, WindowEventCodec.write(input, timestamp), start);
    agg.add(input, timestamp);
    cache.put(key, agg);
    open.computeIfAbsent(start, s -> new TreeSet<>()).add(deployment);
    emitClosed(record, closeTime);
  }

  private long windowStart(long timestamp) {
    return timestamp - Math.floorMod(timestamp, sizeMs);
  }

  /** The cached window, else its replayed log entries, else a new window. */
  private Agg load(WindowKey key) {
    Agg agg = cache.get(key);
    if (agg != null) {
      return agg;
    }
    agg = new Agg();
    TreeSet<String> deployments = open.get(key.start());
    if (deployments != null && deployments.contains(key.deploymentId())) {
      try (WindowStoreIterator<byte[]> it =
          events.fetch(key.deploymentId(), key.start(), key.start())) {
        while (it.hasNext()) {
          WindowEventCodec.Entry e = WindowEventCodec.read(it.next().value);
          if (agg.ids.add(e.input().event().getEventId())) {
            agg.add(e.input(), e.timestamp());
          }
        }
      }
    }
    return agg;
  }

  private void emitClosed(Record<String, WindowInput> trigger, long closeTime) {
    if (closeTime <= closedUntil) {
      return;
    }
    NavigableMap<Long, TreeSet<String>> closed = open.headMap(closeTime - sizeMs, true);
    if (closed.isEmpty()) {
      closedUntil = closeTime;
      return;
    }
    for (Iterator<Map.Entry<Long, TreeSet<String>>> it = closed.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<Long, TreeSet<String>> window = it.next();
      long start = window.getKey();
      for (String deployment : window.getValue()) {
        WindowKey key = new WindowKey(deployment, start);
        Agg agg = load(key);
        cache.remove(key);
        List<WindowResult> rows = agg.window.toResults(deployment, start, start + sizeMs);
        List<Record<String, WindowResult>> out = new ArrayList<>(rows.size());
        for (WindowResult row : rows) {
          out.add(new Record<>(deployment, row, agg.maxTimestamp, trigger.headers()));
        }
        out.forEach(context::forward);
      }
      it.remove();
    }
    closedUntil = closeTime;
    progress.put(PROGRESS_KEY, closedUntil);
  }
}
