package io.specwatch.streams;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * The store of {@link WindowAggregator}: a logged RocksDB key-value store of the open windows, the
 * closed windows' event-id hashes and the task's stream time (keys and values: {@link
 * WindowAggregator}), with a hook that runs when the task flushes its stores before a commit.
 *
 * <p>The aggregator keeps the windows it updates on the heap and writes them here only in that
 * hook, so a window that takes many events between two commits is encoded once, not once per event
 * (what the DSL's record cache did). The hook runs inside {@code StreamTask.prepareCommit}, before
 * the record collector is flushed and, under exactly-once, before the transaction commits: the
 * changelog records of the flushed windows are in the same transaction as the input offsets they
 * account for. Kafka Streams calls the hook through {@code CachedStateStore.flushCache()}, the
 * interface of its own record caches ({@code org.apache.kafka.streams.state.internals}, an internal
 * API: TopologyTest and the restart ITs fail if a Kafka upgrade changes that call).
 *
 * <p>Not a {@code KeyValueStore} on purpose: the processor context hands such stores out wrapped in
 * a decorator, and the aggregator needs this class's {@link #beforeFlush} hook.
 */
final class OpenWindowStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]> {
  private static final Runnable NOTHING = () -> {};
  private Runnable beforeFlush = NOTHING;

  OpenWindowStore(KeyValueStore<Bytes, byte[]> inner) {
    super(inner);
  }

  /** Runs {@code hook} at every flush of the task's stores (null: nothing). */
  void beforeFlush(Runnable hook) {
    this.beforeFlush = hook == null ? NOTHING : hook;
  }

  @Override
  public void flushCache() {
    beforeFlush.run();
    super.flushCache();
  }

  byte[] get(Bytes key) {
    return wrapped().get(key);
  }

  void put(Bytes key, byte[] value) {
    wrapped().put(key, value);
  }

  void delete(Bytes key) {
    wrapped().delete(key);
  }

  /** Every entry; the caller closes the iterator. */
  KeyValueIterator<Bytes, byte[]> all() {
    return wrapped().all();
  }

  /** The stored (flushed) state of one open window, or null: for tests and diagnostics. */
  DeploymentWindow fetch(String deploymentId, long windowStartMs) {
    byte[] bytes = get(new WindowKey(deploymentId, windowStartMs).toBytes(WindowAggregator.OPEN));
    return bytes == null ? null : WindowAggregator.decodeWindow(bytes);
  }
}
