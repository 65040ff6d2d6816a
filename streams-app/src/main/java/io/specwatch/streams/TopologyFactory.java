package io.specwatch.streams;

import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.AlertTopology;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds the specwatch topology. A pure function: no I/O, no statics; main and tests share it.
 *
 * <pre>
 * decode-events (key deploymentId)
 *   -> event-gate (key check; events too far ahead of their ingest time dead-lettered)
 *   -> acceptance-window-aggregate [open-window-store]: tumbling event-time windows per
 *      deployment, grace from config, re-sent event ids dropped, late events into the open
 *      window, emitted once on close;
 *      one window holds every breakdown row (spec/non-spec x total, category, batch bucket);
 *      one WindowResult per row
 *   -> run-context-lookup (run-context table store, same task) -> key = comparison key
 *   -> repartition baseline-by-key (partitioned by the key without its bucket)
 *   -> baseline-join (baseline-store: learned t_AR; static config)
 *   -> windowResults (key deploymentId) -> window-results
 * windowResults + run-context table -> alert rules ({@link AlertTopology}) -> alerts
 * </pre>
 */
public final class TopologyFactory {

  /**
   * How far back (run-context time) the run-context store keeps earlier contexts of a deployment. A
   * window older than this behind the newest context when it closes (a deployment silent for more
   * than a week) gets its deployment's latest context, as all windows did before the store was
   * versioned.
   */
  static final Duration RUN_CONTEXT_HISTORY = Duration.ofDays(7);

  /**
   * Topic settings of the open-window store's changelog. Kafka Streams stamps changelog records
   * with the event time being processed. The store's changelog is compacted only, so nothing is
   * deleted by time; append time still keeps a replayed log's old event times out of the
   * changelog's timestamps (the DSL window store of earlier releases had {@code compact,delete} and
   * lost its open windows to the broker's time retention that way: ScaleOutIT, docs/DESIGN.md).
   */
  static final Map<String, String> WINDOW_CHANGELOG_CONFIG =
      Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");

  private TopologyFactory() {}

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
            // versioned: a closed window looks up the context in force at its end, not the one
            // in force when it closed (end + grace, or hours later after a silent spell)
            Materialized.<String, RunContext>as(
                    Stores.persistentVersionedKeyValueStore(
                        TopologyNames.RUN_CONTEXT_STORE, RUN_CONTEXT_HISTORY))
                .withKeySerde(Serdes.String())
                .withValueSerde(in.runContextSerde()));

    builder.addStateStore(
        new OpenWindowStoreBuilder(TopologyNames.OPEN_WINDOW_STORE, WINDOW_CHANGELOG_CONFIG));
    long windowMs = in.windowSize().toMillis();
    long graceMs = in.grace().toMillis();
    long maxAheadMs = in.maxEventAhead().toMillis();
    // key deploymentId all the way: no repartition; rows of closed windows keyed by deploymentId
    KStream<String, WindowResult> closedRows =
        builder.stream(
                in.decodeEventsTopic(),
                Consumed.with(Serdes.String(), in.decodeEventSerde())
                    .withTimestampExtractor(new EventTimeExtractor(maxAheadMs))
                    .withName(TopologyNames.DECODE_EVENTS_SOURCE))
            .processValues(() -> new EventGate(maxAheadMs), Named.as(TopologyNames.EVENT_GATE))
            .process(
                () -> new WindowAggregator(windowMs, graceMs, in.dedupRetention().toMillis()),
                Named.as(TopologyNames.WINDOW_AGGREGATE),
                TopologyNames.OPEN_WINDOW_STORE);

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
                    .withValueSerde(in.windowResultSerde())
                    // by model|hardwareClass|tp: a deployment's rows stay in window order
                    .withStreamPartitioner(new ComparisonKeyPartitioner()))
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
