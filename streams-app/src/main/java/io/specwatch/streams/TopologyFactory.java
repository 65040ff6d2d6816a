package io.specwatch.streams;

import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.AlertTopology;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Builds the specwatch topology. A pure function: no I/O, no statics; main and tests share it.
 *
 * <pre>
 * decode-events (key deploymentId)
 *   -> late-event-router (key check, re-sent event ids dropped [event-id-store], late events
 *      re-timed into the open window)
 *   -> tumbling event-time windows per deployment, grace from config, emitted once on close;
 *      one value holds every breakdown row (spec/non-spec x total, category, batch bucket)
 *   -> one WindowResult per row
 *   -> run-context-lookup (run-context table store, same task) -> key = comparison key
 *   -> repartition baseline-by-key -> baseline-join (baseline-store: learned t_AR; static config)
 *   -> windowResults (key deploymentId) -> window-results
 * windowResults + run-context table -> alert rules ({@link AlertTopology}) -> alerts
 * </pre>
 */
public final class TopologyFactory {

  /**
   * Topic settings of the window store's changelog. Streams stamps each changelog record with the
   * window's latest event time and gives the topic {@code cleanup.policy=compact,delete} with
   * {@code retention.ms} = store retention + 1 day. With CreateTime the broker's next retention
   * check (every 5 minutes by default) deletes every record whose event time is older than that: a
   * replayed log, or any data more than a day old, leaves an empty changelog, and the next restore
   * (a restart after kill -9, a task moving to another instance) rebuilds open windows from nothing
   * (ScaleOutIT lost the first three of a window's four events that way). With LogAppendTime the
   * retention counts from when the update was written. A restore then stamps restored windows with
   * that append time instead of their event time; {@link RunContextLookup} re-stamps every result
   * with its window end, so no record time downstream depends on it (docs/DESIGN.md).
   */
  static final Map<String, String> WINDOW_CHANGELOG_CONFIG =
      Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");

  /** How far beyond window + grace the window store keeps windows: the largest safe time jump. */
  static final Duration RETENTION_BEYOND_GRACE = Duration.ofHours(1);

  private TopologyFactory() {}

  /**
   * Retention of the window store: window + grace + {@link #RETENTION_BEYOND_GRACE}. Kafka Streams
   * (4.4, emit on window close) stores the closing event's window before it fetches the windows
   * that event closed, and a RocksDB window store hides windows that start before its newest window
   * start minus its retention. With the DSL default (window + grace) an event-time jump larger than
   * the grace on a partition (its deployments quiet for a few minutes) hid the windows it closed,
   * and they were never emitted, unless the record cache still held them (TopologyTest
   * anEventTimeJumpBeyondTheGraceStillEmitsTheWindowsItCloses). With one hour more, a partition may
   * go quiet for up to an hour; the price is an hour of closed windows kept on local disk.
   */
  static Duration windowStoreRetention(Duration windowSize, Duration grace) {
    return windowSize.plus(grace).plus(RETENTION_BEYOND_GRACE);
  }

  /** The topology for {@code in}. */
  public static Topology build(TopologyInputs in) {
    Properties props = new Properties();
    // placeholders: TopologyConfig needs a valid StreamsConfig; these do not reach the topology
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "specwatch-topology");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
    props.put("processing.exception.handler.global.enabled", "true"); // no warning per build
    StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
    TimeWindows windows = TimeWindows.ofSizeAndGrace(in.windowSize(), in.grace());

    KTable<String, RunContext> runContexts =
        builder.table(
            in.runContextTopic(),
            Consumed.with(Serdes.String(), in.runContextSerde())
                .withTimestampExtractor(new RunContextTimestampExtractor())
                .withName(TopologyNames.RUN_CONTEXT_SOURCE),
            Materialized.<String, RunContext, KeyValueStore<Bytes, byte[]>>as(
                    TopologyNames.RUN_CONTEXT_STORE)
                .withKeySerde(Serdes.String())
                .withValueSerde(in.runContextSerde()));

    if (in.dedup()) {
      // event ids at their event time for the dedup retention; the changelog uses append time
      // for the reason given at WINDOW_CHANGELOG_CONFIG
      builder.addStateStore(
          Stores.windowStoreBuilder(
                  Stores.persistentWindowStore(
                      TopologyNames.EVENT_ID_STORE,
                      in.dedupRetention(),
                      Duration.ofMillis(1),
                      false),
                  Serdes.String(),
                  Serdes.ByteArray())
              .withLoggingEnabled(WINDOW_CHANGELOG_CONFIG)
              .withCachingEnabled());
    }
    KStream<String, WindowResult> closedRows =
        builder.stream(
                in.decodeEventsTopic(),
                Consumed.with(Serdes.String(), in.decodeEventSerde())
                    .withTimestampExtractor(new EventTimeExtractor())
                    .withName(TopologyNames.DECODE_EVENTS_SOURCE))
            .processValues(
                () -> new LateEventRouter(windows, in.dedupRetention()),
                Named.as(TopologyNames.LATE_EVENT_ROUTER),
                in.dedup() ? new String[] {TopologyNames.EVENT_ID_STORE} : new String[0])
            .groupByKey(
                Grouped.<String, WindowInput>as(TopologyNames.GROUP_BY_DEPLOYMENT)
                    .withKeySerde(Serdes.String()))
            .windowedBy(windows)
            .emitStrategy(EmitStrategy.onWindowClose())
            .aggregate(
                DeploymentWindow::empty,
                (String deployment, WindowInput input, DeploymentWindow w) -> w.add(input),
                Named.as(TopologyNames.WINDOW_AGGREGATE),
                Materialized.<String, DeploymentWindow, WindowStore<Bytes, byte[]>>as(
                        TopologyNames.WINDOW_STORE)
                    .withKeySerde(Serdes.String())
                    .withValueSerde(new DeploymentWindowSerde())
                    .withLoggingEnabled(WINDOW_CHANGELOG_CONFIG)
                    .withRetention(windowStoreRetention(in.windowSize(), in.grace())))
            .toStream(Named.as(TopologyNames.WINDOW_TO_STREAM))
            .flatMap(
                (window, w) ->
                    w
                        .toResults(window.key(), window.window().start(), window.window().end())
                        .stream()
                        .map(r -> KeyValue.pair(window.key(), r))
                        .toList(),
                Named.as(TopologyNames.WINDOW_TO_RESULT));

    builder.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(TopologyNames.BASELINE_STORE),
            Serdes.String(),
            new LearnedBaselinesSerde()));
    // every final window row of every deployment, keyed by deploymentId: what window-results gets
    KStream<String, WindowResult> windowResults =
        closedRows
            .process(
                RunContextLookup::new,
                Named.as(TopologyNames.RUN_CONTEXT_LOOKUP),
                TopologyNames.RUN_CONTEXT_STORE)
            .repartition(
                Repartitioned.<String, WindowResult>as(TopologyNames.BASELINE_REPARTITION)
                    .withKeySerde(Serdes.String())
                    .withValueSerde(in.windowResultSerde()))
            .process(
                () -> new BaselineJoin(in.staticBaselines(), in.baselineMaxAge()),
                Named.as(TopologyNames.BASELINE_JOIN),
                TopologyNames.BASELINE_STORE);

    windowResults.to(
        in.windowResultsTopic(),
        Produced.with(Serdes.String(), in.windowResultSerde())
            .withName(TopologyNames.WINDOW_RESULTS_SINK));
    AlertTopology.addTo(builder, windowResults, runContexts, in);
    return builder.build();
  }
}
