package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.AlertTopology;
import java.util.Properties;
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
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Builds the specwatch topology. A pure function: no I/O, no statics; main and tests share it.
 *
 * <p>decode-events (key deploymentId) -> speculative events only -> tumbling event-time windows per
 * deployment (grace from config, emitted once on window close) -> one WindowResult per window on
 * window-results (key deploymentId). Events later than the grace are dropped by Streams and counted
 * in the task metric {@code dropped-records-total}. The final window results and the run-context
 * table (latest RunContext per deployment) feed the alert rules ({@link AlertTopology}) -> alerts.
 */
public final class TopologyFactory {

  private TopologyFactory() {}

  /** The topology for {@code in}. */
  public static Topology build(TopologyInputs in) {
    Properties props = new Properties();
    // placeholders: TopologyConfig needs a valid StreamsConfig; these do not reach the topology
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "specwatch-topology");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
    StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));

    KStream<String, WindowResult> windowResults =
        builder.stream(
                in.decodeEventsTopic(),
                Consumed.with(Serdes.String(), in.decodeEventSerde())
                    .withTimestampExtractor(new EventTimeExtractor())
                    .withName(TopologyNames.DECODE_EVENTS_SOURCE))
            .processValues(SpeculativeEventsFilter::new, Named.as(TopologyNames.SPECULATIVE_FILTER))
            .groupByKey(
                Grouped.with(
                    TopologyNames.GROUP_BY_DEPLOYMENT, Serdes.String(), in.decodeEventSerde()))
            .windowedBy(TimeWindows.ofSizeAndGrace(in.windowSize(), in.grace()))
            .emitStrategy(EmitStrategy.onWindowClose())
            .aggregate(
                WindowAccumulator::empty,
                (String deployment, DecodeEvent event, WindowAccumulator acc) -> acc.add(event),
                Named.as(TopologyNames.WINDOW_AGGREGATE),
                Materialized.<String, WindowAccumulator, WindowStore<Bytes, byte[]>>as(
                        TopologyNames.WINDOW_STORE)
                    .withKeySerde(Serdes.String())
                    .withValueSerde(new WindowAccumulatorSerde()))
            .toStream(Named.as(TopologyNames.WINDOW_TO_STREAM))
            .map(
                (window, acc) ->
                    KeyValue.pair(
                        window.key(),
                        acc.toResult(window.key(), window.window().start(), window.window().end())),
                Named.as(TopologyNames.WINDOW_TO_RESULT));
    windowResults.to(
        in.windowResultsTopic(),
        Produced.with(Serdes.String(), in.windowResultSerde())
            .withName(TopologyNames.WINDOW_RESULTS_SINK));

    KTable<String, RunContext> runContexts =
        builder.table(
            in.runContextTopic(),
            Consumed.with(Serdes.String(), in.runContextSerde())
                .withName(TopologyNames.RUN_CONTEXT_SOURCE),
            Materialized.<String, RunContext, KeyValueStore<Bytes, byte[]>>as(
                    TopologyNames.RUN_CONTEXT_STORE)
                .withKeySerde(Serdes.String())
                .withValueSerde(in.runContextSerde())
                .withCachingDisabled());
    AlertTopology.addTo(builder, windowResults, runContexts, in);
    return builder.build();
  }
}
