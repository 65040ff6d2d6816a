package io.specwatch.streams;

import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds {@link OpenWindowStore} around a persistent (RocksDB) key-value store, changelogged, with
 * no record cache: the aggregator's heap is the cache.
 */
final class OpenWindowStoreBuilder implements StoreBuilder<OpenWindowStore> {
  private final StoreBuilder<KeyValueStore<Bytes, byte[]>> inner;

  OpenWindowStoreBuilder(String name, Map<String, String> changelogConfig) {
    this.inner =
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
            .withCachingDisabled()
            .withLoggingEnabled(changelogConfig);
  }

  @Override
  public StoreBuilder<OpenWindowStore> withCachingEnabled() {
    throw new UnsupportedOperationException(
        "the open-window store has no record cache: its aggregator keeps the windows on the heap");
  }

  @Override
  public StoreBuilder<OpenWindowStore> withCachingDisabled() {
    return this;
  }

  @Override
  public StoreBuilder<OpenWindowStore> withLoggingEnabled(Map<String, String> config) {
    inner.withLoggingEnabled(config);
    return this;
  }

  @Override
  public StoreBuilder<OpenWindowStore> withLoggingDisabled() {
    inner.withLoggingDisabled();
    return this;
  }

  @Override
  public OpenWindowStore build() {
    return new OpenWindowStore(inner.build());
  }

  @Override
  public Map<String, String> logConfig() {
    return inner.logConfig();
  }

  @Override
  public boolean loggingEnabled() {
    return inner.loggingEnabled();
  }

  @Override
  public String name() {
    return inner.name();
  }
}
