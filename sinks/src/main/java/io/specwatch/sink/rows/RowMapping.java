package io.specwatch.sink.rows;

import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * How one Avro value of type {@code V} becomes one row of a table: the column list (the INSERT
 * names it, so a column added later by a migration does not break an older sink) and the writer.
 * {@link #write} must call the writer once per column, in {@link #columns()} order ({@code
 * RowMappingsTest} checks it for every table).
 */
public interface RowMapping<V extends SpecificRecord> {

  /** The Avro class read from the topic. */
  Class<V> type();

  /**
   * The row's own time (event time), as carried by the value: what {@code sink replay --from --to}
   * selects by (not the Kafka record timestamp, which on the streams-app's LogAppendTime topics is
   * the append time). Each table's is its time column: the partition key where it has one ({@code
   * run_contexts}: {@code observed_at}).
   */
  Instant eventTime(V value);

  /** Column names in the order {@link #write} writes them. */
  List<String> columns();

  /** Writes one row; throws {@link RowMappingException} for a value the table cannot hold. */
  void write(V value, Source source, Instant insertedAt, ColumnWriter out);

  /**
   * Where the value was read in Kafka (the last three columns of every table, then inserted_at).
   */
  record Source(String topic, int partition, long offset) {}

  /** The provenance columns every table ends with. */
  static void provenance(Source source, Instant insertedAt, ColumnWriter out) {
    out.string("kafka_topic", source.topic());
    out.int32("kafka_partition", source.partition());
    out.int64("kafka_offset", source.offset());
    out.dateTimeMs("inserted_at", insertedAt);
  }

  /** Provenance column names, in order. */
  List<String> PROVENANCE =
      List.of("kafka_topic", "kafka_partition", "kafka_offset", "inserted_at");
}
