package io.specwatch.sink;

import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.JsonEachRowWriter;
import io.specwatch.sink.rows.RowBinaryWriter;
import io.specwatch.sink.rows.RowMapping;
import java.io.InputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Encoded rows of one table waiting for their insert, with where each came from (topic, partition,
 * offset, key, raw value) so that a failing batch can be split and a poison row dead-lettered with
 * its original bytes. Any contiguous range of rows is a valid insert body in both formats.
 */
final class TableBuffer<V extends SpecificRecord> {

  /** Where a buffered row came from. */
  record Origin(String topic, int partition, long offset, String key, byte[] raw) {}

  private static final int KEEP_BYTES = 1 << 26;

  private final SinkTable table;
  private final RowMapping<V> mapping;
  private final InsertFormat format;
  private final ByteSink bytes = new ByteSink(1 << 16);
  private final RowBinaryWriter binary;
  private final JsonEachRowWriter json;
  // where each row came from, in parallel arrays and one byte arena for the raw values (not an
  // object and a byte[] per row: those survived young collections until the batch was acknowledged)
  private final ByteSink raws = new ByteSink(1 << 16);
  private int rows;
  private String[] topics = new String[1024];
  private int[] partitions = new int[1024];
  private long[] offsets = new long[1024];
  private String[] keys = new String[1024];
  private int[] rawEnds = new int[1024];
  private final java.util.BitSet nullRaw = new java.util.BitSet();
  private int[] rowEnds = new int[1024];
  private long firstAddedNanos;
  private final boolean millis;
  // the insert uploading this buffer while it fills (null: none; the batch is sent when handed off)
  private StreamedBody stream;

  /** {@code millis}: the server's {@code ${DateTimeMs}} columns are DateTime64(3) (modern). */
  TableBuffer(SinkTable table, RowMapping<V> mapping, InsertFormat format, boolean millis) {
    this.table = table;
    this.mapping = mapping;
    this.format = format;
    this.millis = millis;
    this.binary = new RowBinaryWriter(bytes, millis);
    this.json = new JsonEachRowWriter(bytes, millis);
  }

  SinkTable table() {
    return table;
  }

  List<String> columns() {
    return mapping.columns();
  }

  InsertFormat format() {
    return format;
  }

  /**
   * Encodes and appends one row. On {@link io.specwatch.sink.rows.RowMappingException} (or any
   * mapping failure) nothing is appended and the exception propagates.
   */
  void add(V value, ConsumerRecord<String, byte[]> record, Instant insertedAt) {
    int start = bytes.size();
    RowMapping.Source source =
        new RowMapping.Source(record.topic(), record.partition(), record.offset());
    try {
      if (format == InsertFormat.JSON_EACH_ROW) {
        json.startRow();
        mapping.write(value, source, insertedAt, json);
        json.endRow();
      } else {
        mapping.write(value, source, insertedAt, binary);
      }
    } catch (RuntimeException e) {
      bytes.truncate(start);
      throw e;
    }
    appended(record);
  }

  /**
   * Appends one row transcoded from the record's Avro bytes (RowBinary only). False, with nothing
   * appended, when the transcoder throws (bad bytes, unmappable value): the caller then takes the
   * decode + {@link #add} path, which reports the record as before.
   */
  boolean addTranscoded(
      io.specwatch.sink.rows.RowTranscoder transcoder,
      ConsumerRecord<String, byte[]> record,
      Instant insertedAt) {
    int start = bytes.size();
    byte[] data = record.value();
    try {
      transcoder.transcode(
          data,
          io.specwatch.serde.WireFormat.HEADER_SIZE,
          data.length - io.specwatch.serde.WireFormat.HEADER_SIZE,
          new RowMapping.Source(record.topic(), record.partition(), record.offset()),
          insertedAt,
          bytes,
          millis);
    } catch (RuntimeException e) {
      bytes.truncate(start);
      return false;
    }
    appended(record);
    return true;
  }

  private void appended(ConsumerRecord<String, byte[]> record) {
    int n = rows;
    if (n == 0) {
      firstAddedNanos = System.nanoTime();
    }
    if (n == rowEnds.length) {
      grow(n * 2);
    }
    rowEnds[n] = bytes.size();
    topics[n] = record.topic();
    partitions[n] = record.partition();
    offsets[n] = record.offset();
    keys[n] = record.key();
    byte[] raw = record.value();
    if (raw == null) {
      nullRaw.set(n);
    } else {
      nullRaw.clear(n);
      raws.write(raw, 0, raw.length);
    }
    rawEnds[n] = raws.size();
    rows = n + 1;
  }

  private void grow(int capacity) {
    rowEnds = Arrays.copyOf(rowEnds, capacity);
    topics = Arrays.copyOf(topics, capacity);
    partitions = Arrays.copyOf(partitions, capacity);
    offsets = Arrays.copyOf(offsets, capacity);
    keys = Arrays.copyOf(keys, capacity);
    rawEnds = Arrays.copyOf(rawEnds, capacity);
  }

  int rows() {
    return rows;
  }

  boolean isEmpty() {
    return rows == 0;
  }

  int bytes() {
    return bytes.size();
  }

  long ageNanos() {
    return rows == 0 ? 0 : System.nanoTime() - firstAddedNanos;
  }

  /** Where row {@code row} came from (a copy of its raw value). */
  Origin origin(int row) {
    if (row < 0 || row >= rows) {
      throw new IndexOutOfBoundsException("row " + row + " of " + rows);
    }
    byte[] raw = nullRaw.get(row) ? null : raws.copy(row == 0 ? 0 : rawEnds[row - 1], rawEnds[row]);
    return new Origin(topics[row], partitions[row], offsets[row], keys[row], raw);
  }

  /** The insert body of rows {@code [from, to)}. */
  InputStream body(int from, int to) {
    return bytes.slice(start(from), rowEnds[to - 1]);
  }

  /** Bytes of rows {@code [from, to)}. */
  int bodyBytes(int from, int to) {
    return rowEnds[to - 1] - start(from);
  }

  private int start(int row) {
    return row == 0 ? 0 : rowEnds[row - 1];
  }

  /**
   * Deterministic identity of rows {@code [from, to)}: table plus, per topic-partition, the first
   * and last offset, e.g. {@code decode_events:t-0:100-199,t-1:40-80}. The same records give the
   * same id on every retry; it is the insert dedup token where the server supports one.
   */
  String batchId(int from, int to) {
    // per row only a compare with the previous row's partition (rows come in runs per partition);
    // the string key is built once per run, not once per row (this ran over every row of a batch)
    Map<String, long[]> ranges = new TreeMap<>();
    String topic = null;
    int partition = -1;
    long[] r = null;
    for (int i = from; i < to; i++) {
      if (r == null || partitions[i] != partition || !topics[i].equals(topic)) {
        topic = topics[i];
        partition = partitions[i];
        long offset = offsets[i];
        r = ranges.computeIfAbsent(topic + "-" + partition, k -> new long[] {offset, offset});
      }
      r[0] = Math.min(r[0], offsets[i]);
      r[1] = Math.max(r[1], offsets[i]);
    }
    StringBuilder id = new StringBuilder(table.table()).append(':');
    String sep = "";
    for (Map.Entry<String, long[]> e : ranges.entrySet()) {
      id.append(sep)
          .append(e.getKey())
          .append(':')
          .append(e.getValue()[0])
          .append('-')
          .append(e.getValue()[1]);
      sep = ",";
    }
    return id.toString();
  }

  /** The streamed upload of this buffer, or null. */
  StreamedBody stream() {
    return stream;
  }

  /**
   * Starts streaming this buffer: {@code body} gets the rows so far and, through {@link
   * #publish()}, every row appended later.
   */
  void streamTo(StreamedBody body) {
    if (stream != null) {
      throw new IllegalStateException("buffer of " + table.table() + " is already streamed");
    }
    stream = body;
    publish();
  }

  /** Hands the rows appended so far to the streamed upload, if any (whole rows only). */
  void publish() {
    StreamedBody s = stream;
    if (s != null) {
      s.publish(bytes.array(), rows == 0 ? 0 : rowEnds[rows - 1]);
    }
  }

  /** Forgets the streamed upload (it ended, or its result was taken). */
  void unstream() {
    stream = null;
  }

  void clear() {
    stream = null;
    bytes.reset(KEEP_BYTES);
    raws.reset(KEEP_BYTES);
    Arrays.fill(keys, 0, rows, null);
    Arrays.fill(topics, 0, rows, null);
    nullRaw.clear();
    rows = 0;
    if (rowEnds.length > 1 << 18) {
      rowEnds = new int[1024];
      grow(1024);
    }
  }
}
