package io.specwatch.streams.alert;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A write-through heap copy of one state store that only one processor writes ({@link
 * AlertProcessor}'s alert states, {@code BaselineJoin}'s learned baselines): {@link #get} returns
 * the value last {@link #put} (or read) for the key without deserializing the store's JSON again
 * (the gets were about half of the alert stage's CPU); every put still goes to the store and its
 * changelog. The values are immutable records whose serde round trip is lossless (the alert states'
 * JSON: {@code HeapStateCacheTest}; {@code LearnedBaselinesSerde}: {@code BaselinePartsTest}), so a
 * value from the heap equals the one the store would return. Holds at most {@code maxEntries} keys
 * (least recently used leave first); {@link #clear} on every {@code init} of the processor (a
 * revived task restores its stores).
 *
 * @param <V> the state record type
 */
public final class HeapStateCache<V> {
  private final KeyValueStore<String, V> store;
  private final Map<String, V> heap;

  public HeapStateCache(KeyValueStore<String, V> store, int maxEntries) {
    this.store = store;
    this.heap =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
            return size() > maxEntries;
          }
        };
  }

  /** The store's value for {@code key}, or null. */
  public V get(String key) {
    V v = heap.get(key);
    if (v == null) {
      v = store.get(key);
      if (v != null) {
        heap.put(key, v);
      }
    }
    return v;
  }

  /** Writes {@code value} to the store (and its changelog) and keeps it on the heap. */
  public void put(String key, V value) {
    store.put(key, value);
    if (value == null) {
      heap.remove(key);
    } else {
      heap.put(key, value);
    }
  }

  /** Forgets the heap copies (the store stays). */
  public void clear() {
    heap.clear();
  }

  /** The underlying store (iteration, reads that must see the store itself). */
  public KeyValueStore<String, V> store() {
    return store;
  }
}
