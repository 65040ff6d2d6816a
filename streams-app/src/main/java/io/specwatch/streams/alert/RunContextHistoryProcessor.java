package io.specwatch.streams.alert;

import io.specwatch.schemas.RunContext;
import io.specwatch.streams.TopologyNames;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the last {@link RunContextHistory#CAPACITY} run contexts of each deployment in {@link
 * TopologyNames#RUN_CONTEXT_HISTORY_STORE}, for the attribution of regressions. Tombstones and
 * records without a key are ignored (a deleted context leaves its history for attribution).
 */
final class RunContextHistoryProcessor implements Processor<String, RunContext, Void, Void> {
  private KeyValueStore<String, RunContextHistory> history;

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    history = context.getStateStore(TopologyNames.RUN_CONTEXT_HISTORY_STORE);
  }

  @Override
  public void process(Record<String, RunContext> record) {
    RunContext c = record.value();
    if (record.key() == null || c == null) {
      return;
    }
    RunContextHistory h = history.get(record.key());
    RunContextHistory next =
        (h == null ? RunContextHistory.EMPTY : h).with(RunContextHistory.Snapshot.of(c));
    if (next != h) {
      history.put(record.key(), next);
    }
  }
}
