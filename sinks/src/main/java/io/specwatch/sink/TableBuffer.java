package io.specwatch.sink;

import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.JsonEachRowWriter;
import io.specwatch.sink.rows.RowBinaryWriter;
import io.specwatch.sink.rows.RowMapping;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
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
  private final List<Origin> origins = new ArrayList<>();
  private int[] rowEnds = new int[1024];
  private long firstAddedNanos;

  /** {@code millis}: the server's {@code ${DateTimeMs}} columns are DateTime64(3) (modern). */
  TableBuffer(SinkTable table, RowMapping<V> mapping, InsertFormat format, boolean millis) {
    this.table = table;
    this.mapping = mapping;
    this.format = format;
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
    int n = origins.size();
    if (n == 0) {
      firstAddedNanos = System.nanoTime();
    }
    if (n == rowEnds.length) {
      rowEnds = Arrays.copyOf(rowEnds, n * 2);
    }
    rowEnds[n] = bytes.size();
    origins.add(
        new Origin(
            record.topic(), record.partition(), record.offset(), record.key(), record.value()));
  }

  int rows() {
    return origins.size();
  }

  boolean isEmpty() {
    return origins.isEmpty();
  }

  int bytes() {
    return bytes.size();
  }

  long ageNanos() {
    return origins.isEmpty() ? 0 : System.nanoTime() - firstAddedNanos;
  }

  Origin origin(int row) {
    return origins.get(row);
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
      Origin o = origins.get(i);
      if (r == null || o.partition() != partition || !o.topic().equals(topic)) {
        topic = o.topic();
        partition = o.partition();
        long offset = o.offset();
        r = ranges.computeIfAbsent(topic + "-" + partition, k -> new long[] {offset, offset});
      }
      r[0] = Math.min(r[0], o.offset());
      r[1] = Math.max(r[1], o.offset());
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

  void clear() {
    bytes.reset(KEEP_BYTES);
    origins.clear();
    if (rowEnds.length > 1 << 16) {
      rowEnds = new int[1024];
    }
  }
}
