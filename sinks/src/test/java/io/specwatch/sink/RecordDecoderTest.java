package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroDeserializer;
import io.specwatch.serde.InMemorySchemaRegistryClient;
import io.specwatch.serde.SchemaRegistryClient;
import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.ColumnWriter;
import io.specwatch.sink.rows.RowBinaryWriter;
import io.specwatch.sink.rows.RowMapping;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
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
  private static final String[] STRINGS = {
    "",
    "a",
    "kimi-eagle3-0",
    "é",
    "日本語のプロンプト",
    "🚀 emoji",
    "tab\there",
    "new\nline",
    "quote'\"\\",
    "x".repeat(300),
    "ümlaut-ß",
    "\u0000nul",
    "\uD83D\uDE00",
    "chat",
    "code"
  };

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
    GenericRecord now = randomRecord(current, new SplittableRandom(3));
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
    WindowResult a = copy(decoder.decode("t", wire(newerId, newer, future)));
    WindowResult b = copy(decoder.decode("t", wire(olderId, older, old)));
    WindowResult c = copy(decoder.decode("t", wire(currentId, current, now)));

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
    assertThat(reference.deserialize("t", wire(newerId, newer, future))).isEqualTo(a);
    assertThat(reference.deserialize("t", wire(olderId, older, old))).isEqualTo(b);
    assertThat(reference.deserialize("t", wire(currentId, current, now))).isEqualTo(c);
  }

  @Test
  void undecodableBytesThrowAndTheNextRecordStillDecodes() {
    SchemaRegistryClient client = new InMemorySchemaRegistryClient();
    Schema schema = WindowResult.getClassSchema();
    int id = client.register("wr-value", schema);
    GenericRecord r = randomRecord(schema, new SplittableRandom(5));
    byte[] good = wire(id, schema, r);
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
    Schema schema = SpecificRecordSchemas.of(type);
    int id = client.register(table.table() + "-value", schema);
    @SuppressWarnings("unchecked")
    RowMapping<V> mapping = (RowMapping<V>) table.mapping();
    RecordDecoder<V> fast = new RecordDecoder<>(type, client);
    AvroDeserializer<V> old = new AvroDeserializer<>(type, client);
    SplittableRandom random = new SplittableRandom(seed);
    int mapped = 0;
    for (int i = 0; i < count; i++) {
      byte[] bytes = wire(id, schema, randomRecord(schema, random));
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

  static byte[] wire(int id, Schema schema, GenericRecord record) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0);
      out.write(ByteBuffer.allocate(4).putInt(id).array());
      BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
      new GenericDatumWriter<GenericRecord>(schema).write(record, enc);
      enc.flush();
      return out.toByteArray();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A random value for every field, raw Avro types (timestamps as long millis). */
  static GenericRecord randomRecord(Schema schema, SplittableRandom r) {
    GenericRecord rec = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      rec.put(f.name(), value(f.schema(), r));
    }
    return rec;
  }

  private static Object value(Schema s, SplittableRandom r) {
    switch (s.getType()) {
      case UNION:
        return r.nextInt(3) == 0 ? null : value(s.getTypes().get(1), r);
      case STRING:
        return r.nextInt(4) == 0
            ? STRINGS[r.nextInt(STRINGS.length)] + STRINGS[r.nextInt(STRINGS.length)]
            : STRINGS[r.nextInt(STRINGS.length)];
      case LONG:
        if (s.getLogicalType() != null) {
          // mostly inside the DateTime range, sometimes before 1970 or after 2106
          return switch (r.nextInt(10)) {
            case 0 -> -r.nextLong(1, 1L << 40);
            case 1 -> (1L << 33) * 1000 + r.nextLong(1 << 20);
            default -> r.nextLong(0, 4_000_000_000_000L);
          };
        }
        return switch (r.nextInt(6)) {
          case 0 -> Long.MAX_VALUE;
          case 1 -> Long.MIN_VALUE;
          case 2 -> 0L;
          default -> r.nextLong();
        };
      case INT:
        return switch (r.nextInt(5)) {
          case 0 -> Integer.MAX_VALUE;
          case 1 -> Integer.MIN_VALUE;
          default -> r.nextInt();
        };
      case DOUBLE:
        return switch (r.nextInt(9)) {
          case 0 -> Double.NaN;
          case 1 -> Double.POSITIVE_INFINITY;
          case 2 -> Double.NEGATIVE_INFINITY;
          case 3 -> -0.0;
          case 4 -> Double.MIN_VALUE;
          case 5 -> Double.MAX_VALUE;
          default -> r.nextDouble() * 1000;
        };
      case BOOLEAN:
        return r.nextBoolean();
      case ENUM:
        return new GenericData.EnumSymbol(
            s, s.getEnumSymbols().get(r.nextInt(s.getEnumSymbols().size())));
      case ARRAY:
        {
          int n = r.nextInt(4) == 0 ? 40 : r.nextInt(5);
          List<Object> items = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            items.add(value(s.getElementType(), r));
          }
          return items;
        }
      case MAP:
        {
          int n = r.nextInt(5) == 0 ? 30 : r.nextInt(4);
          Map<String, Object> m = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            m.put(STRINGS[r.nextInt(STRINGS.length)] + i, value(s.getValueType(), r));
          }
          return m;
        }
      default:
        throw new IllegalArgumentException("no generator for " + s);
    }
  }

  /** Schema of a generated class. */
  static final class SpecificRecordSchemas {
    static Schema of(Class<? extends SpecificRecord> type) {
      return org.apache.avro.specific.SpecificData.get().getSchema(type);
    }
  }

  /**
   * RowBinary written the plain way (every string through {@code getBytes(UTF_8)}), as the sink
   * wrote it before the fast path; the reference of the comparison.
   */
  private static final class ReferenceRowBinary implements ColumnWriter {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private void le(long v, int bytes) {
      for (int i = 0; i < bytes; i++) {
        out.write((int) (v >>> (8 * i)));
      }
    }

    private void var(long v) {
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    private boolean flag(boolean isNull) {
      out.write(isNull ? 1 : 0);
      return !isNull;
    }

    @Override
    public void string(String column, String value) {
      byte[] b = value.getBytes(StandardCharsets.UTF_8);
      var(b.length);
      out.write(b, 0, b.length);
    }

    @Override
    public void nullableString(String column, String value) {
      if (flag(value == null)) {
        string(column, value);
      }
    }

    @Override
    public void int32(String column, int value) {
      le(value, 4);
    }

    @Override
    public void nullableInt32(String column, Integer value) {
      if (flag(value == null)) {
        le(value, 4);
      }
    }

    @Override
    public void int64(String column, long value) {
      le(value, 8);
    }

    @Override
    public void nullableInt64(String column, Long value) {
      if (flag(value == null)) {
        le(value, 8);
      }
    }

    @Override
    public void float64(String column, double value) {
      le(Double.doubleToRawLongBits(value), 8);
    }

    @Override
    public void nullableFloat64(String column, Double value) {
      if (flag(value == null || !Double.isFinite(value))) {
        float64(column, value);
      }
    }

    @Override
    public void bool(String column, boolean value) {
      out.write(value ? 1 : 0);
    }

    @Override
    public void nullableBool(String column, Boolean value) {
      if (flag(value == null)) {
        bool(column, value);
      }
    }

    @Override
    public void dateTime(String column, Instant value) {
      long s = value == null ? -1 : value.getEpochSecond();
      if (s < 0 || s > 0xFFFF_FFFFL) {
        // the real writer names the column and range (RowMappingException): let it say so
        new RowBinaryWriter(new ByteSink(16)).dateTime(column, value);
      }
      le(s, 4);
    }

    @Override
    public void dateTimeMs(String column, Instant value) {
      dateTime(column, value);
    }

    @Override
    public void float64Array(String column, List<Double> values) {
      var(values.size());
      for (Double v : values) {
        float64(column, v == null || !Double.isFinite(v) ? Double.NaN : v);
      }
    }

    @Override
    public void int64Array(String column, List<Long> values) {
      var(values.size());
      for (Long v : values) {
        le(v == null ? 0 : v, 8);
      }
    }

    @Override
    public void stringArray(String column, List<String> values) {
      var(values.size());
      for (String v : values) {
        string(column, v == null ? "" : v);
      }
    }
  }
}
