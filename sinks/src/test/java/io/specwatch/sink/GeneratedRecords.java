package io.specwatch.sink;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;

/**
 * Random Avro records for the decode-path tests ({@link RecordDecoderTest}, {@link
 * RowTranscoderTest}): a value for every field (nulls, unicode, extreme numbers, NaN/Inf,
 * empty/large maps and arrays, out-of-range timestamps), and their Confluent wire bytes.
 */
final class GeneratedRecords {

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

  private GeneratedRecords() {}

  /** Schema of a generated class. */
  static Schema schemaOf(Class<? extends SpecificRecord> type) {
    return org.apache.avro.specific.SpecificData.get().getSchema(type);
  }

  /** The Confluent wire format: magic byte, schema id, Avro binary. */
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
}
