package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroDeserializer;
import io.specwatch.serde.InMemorySchemaRegistryClient;
import io.specwatch.serde.SchemaRegistryClient;
import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.RowBinaryWriter;
import io.specwatch.sink.rows.RowMapping;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The sink's decode path ({@link RecordDecoder}: header skipped in place, reader per schema id,
 * decoder and record reused, RowBinary strings without a copy) against the old one ({@link
 * AvroDeserializer}: a fresh object per record) encoded by a plain reference RowBinary writer: the
 * same rows byte for byte over generated records (nulls, unicode, extreme numbers, NaN/Inf,
 * empty/large maps and arrays, out-of-range timestamps), decoded one after another so that state
 * left in a reused object would show.
 */
class RecordDecoderTest {

  private static final Instant INSERTED = Instant.parse("2026-03-15T00:00:00Z");

  @Test
  void fastDecodeGivesTheOldPathsRowsForGeneratedDecodeEvents() {
    sameRows(DecodeEvent.class, SinkTable.DECODE_EVENTS, 11L, 3000);
  }

  @Test
  void fastDecodeGivesTheOldPathsRowsForGeneratedWindowResults() {
    sameRows(WindowResult.class, SinkTable.WINDOW_RESULTS, 12L, 3000);
  }

  @Test
  void recordsOfOlderAndNewerWriterSchemasDecodeInterleaved() {
    SchemaRegistryClient client = new InMemorySchemaRegistryClient();
    Schema current = WindowResult.getClassSchema();
    // older: without the optional fields added later (defaults apply)
    Schema older =
        SchemaBuilder.record("WindowResult")
            .namespace(current.getNamespace())
            .fields()
            .requiredString("deploymentId")
            .requiredString("promptCategory")
            .requiredString("batchBucket")
            .name("windowStart")
            .type(tsMillis())
            .noDefault()
            .name("windowEnd")
            .type(tsMillis())
            .noDefault()
            .requiredLong("events")
            .requiredLong("cycles")
            .optionalDouble("meanAcceptLength")
            .endRecord();
    // newer: every current field plus one this sink does not know (ignored)
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : current.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(
        new Schema.Field("futureField", Schema.create(Schema.Type.STRING), "added later", "none"));
    Schema newer =
        Schema.createRecord(current.getName(), null, current.getNamespace(), false, fields);
    int olderId = client.register("wr-value", older);
    int currentId = client.register("wr-value", current);
    int newerId = client.register("wr-value", newer);
    assertThat(List.of(olderId, currentId, newerId)).doesNotHaveDuplicates();

    GenericRecord old = new GenericData.Record(older);
    old.put("deploymentId", "old-dep");
    old.put("promptCategory", "chat");
    old.put("batchBucket", "*");
    old.put("windowStart", 1_773_446_400_000L);
    old.put("windowEnd", 1_773_446_460_000L);
    old.put("events", 5L);
    old.put("cycles", 50L);
    old.put("meanAcceptLength", 2.5);
    GenericRecord now = GeneratedRecords.randomRecord(current, new SplittableRandom(3));
    now.put("deploymentId", "current-dep");
    now.put("specEnabled", false);
    now.put("lateEvents", 7L);
    now.put("baselineSource", "static:x");
    GenericRecord future = new GenericData.Record(newer);
    for (Schema.Field f : current.getFields()) {
      future.put(f.name(), now.get(f.name()));
    }
    future.put("deploymentId", "future-dep");
    future.put("futureField", "ignored");

    RecordDecoder<WindowResult> decoder = new RecordDecoder<>(WindowResult.class, client);
    // interleaved, so a reused object must be fully overwritten by each writer version
    WindowResult a = copy(decoder.decode("t", GeneratedRecords.wire(newerId, newer, future)));
    WindowResult b = copy(decoder.decode("t", GeneratedRecords.wire(olderId, older, old)));
    WindowResult c = copy(decoder.decode("t", GeneratedRecords.wire(currentId, current, now)));

    assertThat(a.getDeploymentId()).isEqualTo("future-dep");
    assertThat(a.getSpecEnabled()).isFalse();
    assertThat(a.getLateEvents()).isEqualTo(7L);
    assertThat(a.getBaselineSource()).isEqualTo("static:x");
    assertThat(b.getDeploymentId()).isEqualTo("old-dep");
    assertThat(b.getWindowStart()).isEqualTo(Instant.parse("2026-03-14T00:00:00Z"));
    assertThat(b.getMeanAcceptLength()).isEqualTo(2.5);
    assertThat(b.getSpecEnabled()).as("default of a field the old writer lacked").isTrue();
    assertThat(b.getLateEvents()).isZero();
    assertThat(b.getBaselineSource()).as("not left over from the previous record").isNull();
    assertThat(b.getPerPositionAcceptance()).isEmpty();
    assertThat(c.getDeploymentId()).isEqualTo("current-dep");
    assertThat(c.getLateEvents()).isEqualTo(7L);
    // and the old path agrees on all three
    AvroDeserializer<WindowResult> reference = new AvroDeserializer<>(WindowResult.class, client);
    assertThat(reference.deserialize("t", GeneratedRecords.wire(newerId, newer, future)))
        .isEqualTo(a);
    assertThat(reference.deserialize("t", GeneratedRecords.wire(olderId, older, old))).isEqualTo(b);
    assertThat(reference.deserialize("t", GeneratedRecords.wire(currentId, current, now)))
        .isEqualTo(c);
  }

  @Test
  void undecodableBytesThrowAndTheNextRecordStillDecodes() {
    SchemaRegistryClient client = new InMemorySchemaRegistryClient();
    Schema schema = WindowResult.getClassSchema();
    int id = client.register("wr-value", schema);
    GenericRecord r = GeneratedRecords.randomRecord(schema, new SplittableRandom(5));
    byte[] good = GeneratedRecords.wire(id, schema, r);
    RecordDecoder<WindowResult> decoder = new RecordDecoder<>(WindowResult.class, client);
    assertThatThrownBy(() -> decoder.decode("t", new byte[] {1, 0, 0, 0, 1}))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("magic byte");
    assertThatThrownBy(() -> decoder.decode("t", java.util.Arrays.copyOf(good, 12)))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("WindowResult");
    assertThatThrownBy(() -> decoder.decode("t", new byte[] {0, 0, 0, 0x7f, 1, 2}))
        .isInstanceOf(SerializationException.class);
    assertThat(decoder.decode("t", good))
        .isEqualTo(new AvroDeserializer<>(WindowResult.class, client).deserialize("t", good));
  }

  private static <V extends SpecificRecord> void sameRows(
      Class<V> type, SinkTable table, long seed, int count) {
    SchemaRegistryClient client = new InMemorySchemaRegistryClient();
    Schema schema = GeneratedRecords.schemaOf(type);
    int id = client.register(table.table() + "-value", schema);
    @SuppressWarnings("unchecked")
    RowMapping<V> mapping = (RowMapping<V>) table.mapping();
    RecordDecoder<V> fast = new RecordDecoder<>(type, client);
    AvroDeserializer<V> old = new AvroDeserializer<>(type, client);
    SplittableRandom random = new SplittableRandom(seed);
    int mapped = 0;
    for (int i = 0; i < count; i++) {
      byte[] bytes =
          GeneratedRecords.wire(id, schema, GeneratedRecords.randomRecord(schema, random));
      V before = old.deserialize("t", bytes);
      V after = fast.decode("t", bytes);
      assertThat(after).as("record %d", i).isEqualTo(before);
      RowMapping.Source source = new RowMapping.Source("t", i % 3, i);
      String expected;
      try {
        ReferenceRowBinary ref = new ReferenceRowBinary();
        mapping.write(before, source, INSERTED, ref);
        expected = java.util.HexFormat.of().formatHex(ref.out.toByteArray());
      } catch (RuntimeException e) {
        expected = e.getClass().getName() + ": " + e.getMessage();
      }
      String actual;
      ByteSink sink = new ByteSink(256);
      try {
        mapping.write(after, source, INSERTED, new RowBinaryWriter(sink));
        actual = java.util.HexFormat.of().formatHex(sink.copy(0, sink.size()));
        mapped++;
      } catch (RuntimeException e) {
        actual = e.getClass().getName() + ": " + e.getMessage();
      }
      assertThat(actual).as("row %d of %s", i, table).isEqualTo(expected);
    }
    assertThat(mapped).as("most generated records are valid rows").isGreaterThan(count / 2);
  }

  private static WindowResult copy(WindowResult w) {
    return WindowResult.newBuilder(w).build(); // the decoder reuses its object
  }

  private static Schema tsMillis() {
    return org.apache.avro.LogicalTypes.timestampMillis()
        .addToSchema(Schema.create(Schema.Type.LONG));
  }
}
