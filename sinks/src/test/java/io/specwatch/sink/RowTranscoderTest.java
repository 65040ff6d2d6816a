package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.InMemorySchemaRegistryClient;
import io.specwatch.serde.SchemaRegistryClient;
import io.specwatch.serde.WireFormat;
import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.RowBinaryWriter;
import io.specwatch.sink.rows.RowMapping;
import io.specwatch.sink.rows.RowTranscoder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTranscoder} (Avro bytes straight to RowBinary) against the decode + {@link RowMapping}
 * path: the same bytes over generated records (nulls, unicode, extremes, NaN/Inf, large maps and
 * arrays), on both DateTime dialects, through one reused transcoder and sink; a record the mapping
 * rejects is rejected by the transcoder too (the sink then takes the old path, which dead-letters
 * it as before); other writer schemas are not transcodable.
 */
class RowTranscoderTest {

  private static final Instant INSERTED = Instant.parse("2026-03-15T00:00:00.123Z");

  @Test
  void decodeEventsTranscodeToTheMappingsBytes() {
    sameRows(DecodeEvent.class, SinkTable.DECODE_EVENTS, 21L, 4000);
  }

  @Test
  void windowResultsTranscodeToTheMappingsBytes() {
    sameRows(WindowResult.class, SinkTable.WINDOW_RESULTS, 22L, 4000);
  }

  @Test
  void otherWriterSchemasTakeTheDecoderPathAndGiveTheRightRow() {
    SchemaRegistryClient client = new InMemorySchemaRegistryClient();
    Schema current = WindowResult.getClassSchema();
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : current.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(
        new Schema.Field("futureField", Schema.create(Schema.Type.STRING), "added later", "none"));
    Schema newer =
        Schema.createRecord(current.getName(), null, current.getNamespace(), false, fields);
    int currentId = client.register("wr-value", current);
    int newerId = client.register("wr-value", newer);
    GenericRecord now = GeneratedRecords.randomRecord(current, new SplittableRandom(9));
    now.put("windowStart", 1_773_446_400_000L);
    now.put("windowEnd", 1_773_446_460_000L);
    GenericRecord future = new GenericData.Record(newer);
    for (Schema.Field f : current.getFields()) {
      future.put(f.name(), now.get(f.name()));
    }
    future.put("futureField", "x".repeat(40));
    byte[] currentBytes = GeneratedRecords.wire(currentId, current, now);
    byte[] newerBytes = GeneratedRecords.wire(newerId, newer, future);

    RowTranscoder transcoder = RowTranscoder.forTable("window_results");
    RecordDecoder<WindowResult> decoder = new RecordDecoder<>(WindowResult.class, client);
    assertThat(decoder.transcodable("t", currentBytes, transcoder)).isTrue();
    assertThat(decoder.transcodable("t", newerBytes, transcoder)).isFalse();
    assertThat(decoder.transcodable("t", new byte[] {1, 0, 0, 0, 1}, transcoder)).isFalse();

    // what the sink's loader does: transcode when exact, else decode + map
    String expected = hex(viaMapping(SinkTable.WINDOW_RESULTS, decoder, currentBytes, false, 0));
    assertThat(hex(viaTranscoder(transcoder, currentBytes, false))).isEqualTo(expected);
    String newerRow = hex(viaMapping(SinkTable.WINDOW_RESULTS, decoder, newerBytes, false, 0));
    assertThat(newerRow).as("the newer writer's record, decoded and resolved").isEqualTo(expected);
    // transcoding the newer record's bytes would misread its layout: the fingerprint check keeps
    // it off that path (an extra trailing field is why the rows could otherwise look equal)
    assertThat(RowTranscoder.forTable("decode_events").matches(current)).isFalse();
    assertThat(RowTranscoder.forTable("alerts")).isNull();
  }

  @Test
  void badBytesAppendNothingAndLeaveTheRecordToTheDecodePath() {
    SchemaRegistryClient client = new InMemorySchemaRegistryClient();
    Schema schema = DecodeEvent.getClassSchema();
    int id = client.register("de-value", schema);
    byte[] good =
        GeneratedRecords.wire(
            id, schema, GeneratedRecords.randomRecord(schema, new SplittableRandom(4)));
    TableBuffer<DecodeEvent> buffer =
        new TableBuffer<>(
            SinkTable.DECODE_EVENTS, DecodeEventsMapping.get(), InsertFormat.ROW_BINARY, false);
    RowTranscoder transcoder = RowTranscoder.forTable("decode_events");
    byte[] truncated = java.util.Arrays.copyOf(good, 12);
    assertThat(buffer.addTranscoded(transcoder, record(truncated, 0), INSERTED)).isFalse();
    assertThat(buffer.rows()).isZero();
    assertThat(buffer.bytes()).isZero();
    byte[] badUnion = good.clone();
    badUnion[WireFormat.HEADER_SIZE] = 0x7f; // first string's length: 63 bytes past the end
    assertThat(buffer.addTranscoded(transcoder, record(badUnion, 1), INSERTED)).isFalse();
    assertThat(buffer.rows()).isZero();
  }

  private static final class DecodeEventsMapping {
    @SuppressWarnings("unchecked")
    static RowMapping<DecodeEvent> get() {
      return (RowMapping<DecodeEvent>) SinkTable.DECODE_EVENTS.mapping();
    }
  }

  private static ConsumerRecord<String, byte[]> record(byte[] value, long offset) {
    return new ConsumerRecord<>("t", 0, offset, "k", value);
  }

  private static <V extends SpecificRecord> void sameRows(
      Class<V> type, SinkTable table, long seed, int count) {
    SchemaRegistryClient client = new InMemorySchemaRegistryClient();
    Schema schema = GeneratedRecords.schemaOf(type);
    int id = client.register(table.table() + "-value", schema);
    RecordDecoder<V> decoder = new RecordDecoder<>(type, client);
    RowTranscoder transcoder = RowTranscoder.forTable(table.table());
    SplittableRandom random = new SplittableRandom(seed);
    ByteSink shared = new ByteSink(256); // one sink for all rows, as in a TableBuffer
    int transcoded = 0;
    int rejected = 0;
    for (int i = 0; i < count; i++) {
      byte[] bytes =
          GeneratedRecords.wire(id, schema, GeneratedRecords.randomRecord(schema, random));
      assertThat(decoder.transcodable("t", bytes, transcoder)).isTrue();
      for (boolean millis : new boolean[] {false, true}) {
        String expected;
        try {
          expected = hex(viaMapping(table, decoder, bytes, millis, i));
        } catch (RuntimeException e) {
          expected = "rejected";
        }
        String actual;
        int start = shared.size();
        try {
          transcoder.transcode(
              bytes,
              WireFormat.HEADER_SIZE,
              bytes.length - WireFormat.HEADER_SIZE,
              new RowMapping.Source("t", i % 3, i),
              INSERTED,
              shared,
              millis);
          actual = HexFormat.of().formatHex(shared.copy(start, shared.size()));
          transcoded++;
        } catch (RuntimeException e) {
          shared.truncate(start);
          actual = "rejected";
          rejected++;
        }
        assertThat(actual).as("row %d of %s, millis %s", i, table, millis).isEqualTo(expected);
      }
    }
    assertThat(transcoded).as("most generated records are valid rows").isGreaterThan(count);
    assertThat(rejected).as("out-of-range times are among them").isPositive();
  }

  private static <V extends SpecificRecord> byte[] viaMapping(
      SinkTable table, RecordDecoder<V> decoder, byte[] bytes, boolean millis, int i) {
    @SuppressWarnings("unchecked")
    RowMapping<V> mapping = (RowMapping<V>) table.mapping();
    V value = decoder.decode("t", bytes);
    ByteSink sink = new ByteSink(256);
    RowMapping.Source source = new RowMapping.Source("t", i % 3, i);
    mapping.write(value, source, INSERTED, new RowBinaryWriter(sink, millis));
    return sink.copy(0, sink.size());
  }

  private static byte[] viaTranscoder(RowTranscoder transcoder, byte[] bytes, boolean millis) {
    ByteSink sink = new ByteSink(256);
    transcoder.transcode(
        bytes,
        WireFormat.HEADER_SIZE,
        bytes.length - WireFormat.HEADER_SIZE,
        new RowMapping.Source("t", 0, 0),
        INSERTED,
        sink,
        millis);
    return sink.copy(0, sink.size());
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
