package io.specwatch.streams.alert;

import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.TopologyInputs;
import io.specwatch.streams.TopologyNames;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The alert part of the topology: window results and run contexts in, raise/clear events out.
 *
 * <pre>
 * window results --filter("*","*",spec)--> repartition(alert-window-results, P) --> alert-evaluator --> alerts
 * run-context table --toStream--> repartition(alert-run-contexts, P) --> alert-run-context-history
 *                                                                            (store read by alert-evaluator)
 * </pre>
 *
 * Both streams are repartitioned onto the same explicit partition count P ({@code
 * AlertConfig.partitions}) so a deployment's window results and run contexts meet in the same task
 * (the final window rows leave the baseline join partitioned by comparison key, not by deployment).
 */
public final class AlertTopology {

  private AlertTopology() {}

  /** Adds the alert processors, stores and the alerts sink to {@code builder}. */
  public static void addTo(
      StreamsBuilder builder,
      KStream<String, WindowResult> windowResults,
      KTable<String, RunContext> runContexts,
      TopologyInputs in) {
    AlertConfig config = in.alerts();
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(TopologyNames.RUN_CONTEXT_HISTORY_STORE),
            Serdes.String(),
            new JsonStateSerde<>(RunContextHistory.class)));
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(TopologyNames.ALERT_HYSTERESIS_STORE),
            Serdes.String(),
            new JsonStateSerde<>(Hysteresis.State.class, AlertStateJson::hysteresis)));
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(TopologyNames.ALERT_REGRESSION_STORE),
            Serdes.String(),
            new JsonStateSerde<>(RegressionDetector.State.class, AlertStateJson::regression)));
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(TopologyNames.ALERT_LAST_SEEN_STORE),
            Serdes.String(),
            new JsonStateSerde<>(LastSeen.class, AlertStateJson::lastSeen)));

    runContexts
        .toStream(Named.as(TopologyNames.RUN_CONTEXT_CHANGES))
        .repartition(
            Repartitioned.<String, RunContext>as(TopologyNames.ALERT_RUN_CONTEXT_REPARTITION)
                .withKeySerde(Serdes.String())
                .withValueSerde(in.runContextSerde())
                .withNumberOfPartitions(config.partitions()))
        .process(
            RunContextHistoryProcessor::new,
            Named.as(TopologyNames.RUN_CONTEXT_HISTORY),
            TopologyNames.RUN_CONTEXT_HISTORY_STORE);

    windowResults
        .filter(
            (deployment, w) -> isDeploymentTotal(w), Named.as(TopologyNames.ALERT_WINDOW_FILTER))
        .repartition(
            Repartitioned.<String, WindowResult>as(TopologyNames.ALERT_WINDOW_REPARTITION)
                .withKeySerde(Serdes.String())
                .withValueSerde(in.windowResultSerde())
                .withNumberOfPartitions(config.partitions()))
        .process(
            () -> new AlertProcessor(config),
            Named.as(TopologyNames.ALERT_EVALUATOR),
            TopologyNames.ALERT_HYSTERESIS_STORE,
            TopologyNames.ALERT_REGRESSION_STORE,
            TopologyNames.ALERT_LAST_SEEN_STORE,
            TopologyNames.RUN_CONTEXT_HISTORY_STORE)
        .to(
            in.alertsTopic(),
            Produced.with(Serdes.String(), in.alertSerde()).withName(TopologyNames.ALERTS_SINK));
  }

  /** The row the rules read: all prompt categories, all batch buckets, speculative. */
  static boolean isDeploymentTotal(WindowResult w) {
    return w != null
        && "*".equals(w.getPromptCategory())
        && "*".equals(w.getBatchBucket())
        && w.getSpecEnabled();
  }
}
