package io.specwatch.streams;

import com.carrotsearch.hppc.LongHashSet;
import com.carrotsearch.hppc.cursors.LongCursor;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.datasketches.hash.MurmurHash3;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Tumbling event-time windows per deployment, emitted once when they close, with the dedup of
 * re-sent events; the windows being updated live on the heap and reach the store (and its
 * changelog) once per commit.
 *
 * <p>Semantics, those of the DSL's {@code windowedBy(TimeWindows.ofSizeAndGrace(size, grace))
 * .emitStrategy(onWindowClose())} that this processor replaced:
 *
 * <ul>
 *   <li>Stream time is the highest event time this processor has seen in its task. A window [start,
 *       start + size) is open while its end is after stream time minus grace; it closes, and its
 *       rows are forwarded (key deploymentId, timestamp the window end), when stream time reaches
 *       its end + grace. Windows close in (start, deploymentId) order.
 *   <li>An event whose own window already closed is late: it adds 1 to {@code lateEvents} of its
 *       rows in the window open at stream time, and nothing else, and counts in the task sensor
 *       {@code late-events-total} (group {@code stream-specwatch-metrics}).
 *   <li>Dedup (a positive dedup retention): each window keeps the 64-bit MurmurHash3 of the event
 *       ids it counted; an event whose id its window already counted (a line the shipper re-sent
 *       after a crash: same id, same event time) is dropped and counted in {@code
 *       duplicate-events-total}. A closed window's id hashes are kept until stream time passes its
 *       end + the dedup retention, so a re-sent event that is late is dropped too, not counted in
 *       {@code lateEvents}. Two different ids collide with probability about n²/2⁶⁵ for n events in
 *       a window (10⁻¹¹ for 10 000).
 * </ul>
 *
 * <p>State: every open window's key is indexed on the heap; a window's {@link DeploymentWindow} and
 * id hashes are on the heap while it is updated and are written to {@link OpenWindowStore} by the
 * store's flush hook, which Kafka Streams runs before every commit (inside the exactly-once
 * transaction). A window closed before it was ever flushed never touches the store. After the
 * flush, at most {@link #HEAP_WINDOWS} clean windows stay deserialized; more than {@link
 * #MAX_DIRTY} dirty windows are written early. The stream time is stored too, so after a restart or
 * a task migration the restored store (open windows, closed windows' ids and the stream time of the
 * last commit) and the input from the committed offsets replay exactly what the lost instance did.
 *
 * <p>Store keys (one type byte first): {@code w} + {@link WindowKey} an open window ({@link
 * #encodeOpen}); {@code i} + {@link WindowKey} a closed window's id hashes; {@code t} the stream
 * time (8 bytes).
 */
final class WindowAggregator implements Processor<String, DecodeEvent, String, WindowResult> {
  /** Clean windows kept deserialized per task after a flush (each a few KB). */
  static final int HEAP_WINDOWS = 4096;

  /** Dirty windows per task beyond which they are written before the commit. */
  static final int MAX_DIRTY = 8192;

  /**
   * Initial id-set capacity of a new window: a minute of SGLang interval lines is a few dozen ids,
   * and starting at HPPC's default of 4 rehashed the set four times on the way there.
   */
  static final int EXPECTED_IDS = 32;

  static final byte OPEN = 'w';
  static final byte CLOSED_IDS = 'i';
  static final Bytes STREAM_TIME_KEY = Bytes.wrap(new byte[] {'t'});
  private static final byte VALUE_VERSION = 1;
  private static final long ID_SEED = 0x5eed_5bec_da7aL;
  private static final long NO_TIME = Long.MIN_VALUE;

  private final long sizeMs;
  private final long graceMs;
  private final long dedupRetentionMs;
  private ProcessorContext<String, WindowResult> context;
  private OpenWindowStore store;
  private Sensor late;
  private Sensor duplicates;
  private final TreeMap<WindowKey, Slot> open = new TreeMap<>();
  // the same slots by key: the per-event lookup hashes instead of walking the tree
  private final HashMap<WindowKey, Slot> openByKey = new HashMap<>();
  private final TreeMap<WindowKey, Boolean> closedIds = new TreeMap<>();
  private final List<Slot> dirty = new ArrayList<>();
  private int loaded;
  private long streamTime = NO_TIME;
  private long storedStreamTime = NO_TIME;

  /** One open window: its state when on the heap, and whether the store has it or is behind. */
  private static final class Slot {
    final WindowKey key;
    DeploymentWindow window;
    LongHashSet ids;
    boolean dirty;
    boolean stored;
    boolean closed;

    Slot(WindowKey key) {
      this.key = key;
    }
  }

  /** A positive {@code dedupRetentionMs} turns dedup on (at least size + grace). */
  WindowAggregator(long sizeMs, long graceMs, long dedupRetentionMs) {
    if (sizeMs <= 0 || graceMs < 0 || dedupRetentionMs < 0) {
      throw new IllegalArgumentException("window size must be > 0, grace and dedup >= 0");
    }
    this.sizeMs = sizeMs;
    this.graceMs = graceMs;
    this.dedupRetentionMs = dedupRetentionMs;
  }

  @Override
  public void init(ProcessorContext<String, WindowResult> context) {
    this.context = context;
    this.late =
        TaskSensors.rateTotal(
            context.metrics(), context.taskId(), TopologyNames.LATE_EVENTS_METRIC);
    this.duplicates =
        TaskSensors.rateTotal(
            context.metrics(), context.taskId(), TopologyNames.DUPLICATE_EVENTS_METRIC);
    this.store = context.getStateStore(TopologyNames.OPEN_WINDOW_STORE);
    // init() runs again on the same instance after a task revive: start from the store
    open.clear();
    openByKey.clear();
    closedIds.clear();
    dirty.clear();
    loaded = 0;
    streamTime = NO_TIME;
    try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
      while (all.hasNext()) {
        KeyValue<Bytes, byte[]> kv = all.next();
        byte[] key = kv.key.get();
        if (kv.key.equals(STREAM_TIME_KEY)) {
          streamTime = ByteBuffer.wrap(kv.value).getLong();
        } else if (key.length >= 9 && key[0] == OPEN) { // 9: a blank id stored before EventGate
          // rejected it (it would otherwise stop every start of this task)
          Slot slot = new Slot(WindowKey.fromBytes(key));
          slot.stored = true;
          open.put(slot.key, slot);
          openByKey.put(slot.key, slot);
        } else if (key.length >= 9 && key[0] == CLOSED_IDS) {
          closedIds.put(WindowKey.fromBytes(key), Boolean.TRUE);
        } else {
          throw new IllegalStateException(
              "unknown key in " + TopologyNames.OPEN_WINDOW_STORE + ": " + kv.key);
        }
      }
    }
    storedStreamTime = streamTime;
    store.beforeFlush(this::flush);
  }

  @Override
  public void process(Record<String, DecodeEvent> record) {
    DecodeEvent event = record.value();
    long timestamp = record.timestamp();
    streamTime = Math.max(streamTime, timestamp);
    long closeTime = streamTime - graceMs;
    long start = windowStart(timestamp);
    String id = dedupRetentionMs > 0 ? event.getEventId() : null;
    long idHash = id == null || id.isEmpty() ? 0 : idHash(id);
    if (start + sizeMs <= closeTime) {
      if (idHash != 0 && closedWindowCounted(new WindowKey(record.key(), start), idHash)) {
        duplicates.record();
        return;
      }
      late.record();
      Slot slot = slot(new WindowKey(record.key(), windowStart(streamTime)));
      slot.window.add(new WindowInput(event, true));
      markDirty(slot);
    } else {
      Slot slot = slot(new WindowKey(record.key(), start));
      if (idHash != 0) {
        if (slot.ids == null) {
          slot.ids = new LongHashSet(EXPECTED_IDS);
        }
        if (!slot.ids.add(idHash)) {
          duplicates.record();
          return;
        }
      }
      slot.window.add(new WindowInput(event, false));
      markDirty(slot);
    }
    emitClosed(closeTime);
    expireClosedIds();
    if (dirty.size() > MAX_DIRTY) {
      writeDirty();
    }
  }

  /** 64-bit MurmurHash3 of the id's UTF-8 bytes, never 0 (0 means: no id). */
  static long idHash(String id) {
    long h = MurmurHash3.hash(id.getBytes(StandardCharsets.UTF_8), ID_SEED)[0];
    return h == 0 ? 1 : h;
  }

  private long windowStart(long timestamp) {
    return timestamp - Math.floorMod(timestamp, sizeMs);
  }

  private void markDirty(Slot slot) {
    if (!slot.dirty) {
      slot.dirty = true;
      dirty.add(slot);
    }
  }

  /** The open window's slot, with its state on the heap. */
  private Slot slot(WindowKey key) {
    Slot slot = openByKey.get(key);
    if (slot == null) {
      slot = new Slot(key);
      open.put(key, slot);
      openByKey.put(key, slot);
      slot.window = DeploymentWindow.empty();
      loaded++;
    } else if (slot.window == null) {
      load(slot);
    }
    return slot;
  }

  private void load(Slot slot) {
    byte[] bytes = store.get(slot.key.toBytes(OPEN));
    if (bytes == null) {
      slot.window = DeploymentWindow.empty();
      slot.ids = null;
    } else {
      decodeOpen(bytes, slot);
    }
    loaded++;
  }

  /** Whether the closed window {@code key} counted an event with this id hash. */
  private boolean closedWindowCounted(WindowKey key, long idHash) {
    if (!closedIds.containsKey(key)) {
      return false;
    }
    byte[] bytes = store.get(key.toBytes(CLOSED_IDS));
    return bytes != null && decodeIds(ByteBuffer.wrap(bytes, 1, bytes.length - 1)).contains(idHash);
  }

  /** Forwards and forgets every window whose end is at or before {@code closeTime}. */
  private void emitClosed(long closeTime) {
    while (!open.isEmpty()) {
      Map.Entry<WindowKey, Slot> first = open.firstEntry();
      WindowKey key = first.getKey();
      if (key.startMs() + sizeMs > closeTime) {
        return;
      }
      Slot slot = first.getValue();
      if (slot.window == null) {
        load(slot);
      }
      open.pollFirstEntry();
      openByKey.remove(key);
      slot.closed = true;
      loaded--;
      if (slot.stored) {
        store.delete(key.toBytes(OPEN));
      }
      if (slot.ids != null && !slot.ids.isEmpty()) {
        ByteBuffer b = ByteBuffer.allocate(1 + 4 + 8 * slot.ids.size()).put(VALUE_VERSION);
        store.put(key.toBytes(CLOSED_IDS), encodeIds(b, slot.ids).array());
        closedIds.put(key, Boolean.TRUE);
      }
      long end = key.startMs() + sizeMs;
      for (WindowResult row : slot.window.toResults(key.deploymentId(), key.startMs(), end)) {
        context.forward(new Record<>(key.deploymentId(), row, end));
      }
      slot.window = null;
      slot.ids = null;
    }
  }

  /** Forgets the ids of closed windows that ended more than the dedup retention ago. */
  private void expireClosedIds() {
    while (!closedIds.isEmpty()) {
      WindowKey key = closedIds.firstKey();
      if (key.startMs() + sizeMs > streamTime - dedupRetentionMs) {
        return;
      }
      closedIds.pollFirstEntry();
      store.delete(key.toBytes(CLOSED_IDS));
    }
  }

  private void writeDirty() {
    for (Slot slot : dirty) {
      if (slot.dirty && !slot.closed) {
        store.put(slot.key.toBytes(OPEN), encodeOpen(slot.window, slot.ids));
        slot.stored = true;
      }
      slot.dirty = false;
    }
    dirty.clear();
  }

  /** The store's flush hook: dirty windows and the stream time to the store; trims the heap. */
  void flush() {
    writeDirty();
    if (streamTime != storedStreamTime) {
      store.put(STREAM_TIME_KEY, ByteBuffer.allocate(8).putLong(streamTime).array());
      storedStreamTime = streamTime;
    }
    if (loaded > HEAP_WINDOWS) {
      for (Slot slot : open.values()) {
        if (slot.window != null) {
          slot.window = null;
          slot.ids = null;
          if (--loaded <= HEAP_WINDOWS / 2) {
            break;
          }
        }
      }
    }
  }

  /**
   * An open window's store value: version byte 1, int length + {@link DeploymentWindowSerde} bytes,
   * then the id hashes (int count + longs).
   */
  static byte[] encodeOpen(DeploymentWindow window, LongHashSet ids) {
    byte[] w = DeploymentWindowSerde.write(window);
    int n = ids == null ? 0 : ids.size();
    ByteBuffer b = ByteBuffer.allocate(1 + 4 + w.length + 4 + 8 * n);
    b.put(VALUE_VERSION).putInt(w.length).put(w);
    return encodeIds(b, ids).array();
  }

  private static ByteBuffer encodeIds(ByteBuffer b, LongHashSet ids) {
    b.putInt(ids == null ? 0 : ids.size());
    if (ids != null) {
      for (LongCursor c : ids) {
        b.putLong(c.value);
      }
    }
    return b;
  }

  /** The window of an open-window value. */
  static DeploymentWindow decodeWindow(byte[] bytes) {
    Slot slot = new Slot(null);
    decodeOpen(bytes, slot);
    return slot.window;
  }

  private static void decodeOpen(byte[] bytes, Slot slot) {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      if (b.get() != VALUE_VERSION) {
        throw new SerializationException("unknown open-window value version " + bytes[0]);
      }
      int length = b.getInt();
      if (length < 0 || length > b.remaining()) {
        throw new SerializationException("open-window value: bad window length " + length);
      }
      byte[] w = new byte[length];
      b.get(w);
      slot.window = DeploymentWindowSerde.read(w);
      LongHashSet ids = decodeIds(b);
      slot.ids = ids.isEmpty() ? null : ids;
    } catch (BufferUnderflowException e) {
      throw new SerializationException("truncated open-window value", e);
    }
  }

  private static LongHashSet decodeIds(ByteBuffer b) {
    int n = b.getInt();
    if (n < 0 || n > b.remaining() / 8) {
      throw new SerializationException("open-window value: bad id count " + n);
    }
    LongHashSet ids = new LongHashSet(n);
    for (int i = 0; i < n; i++) {
      ids.add(b.getLong());
    }
    return ids;
  }

  /**
   * Keeps the flush hook: a revoked or closing task may be suspended (this processor closed) before
   * its last commit, whose flush must still write the dirty windows.
   */
  @Override
  public void close() {}
}
