package io.specwatch.sink.rows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * Avro binary of one record straight to one RowBinary row of its table, without building the
 * generated {@code SpecificRecord}: the fast path of the two high-volume tables ({@code
 * decode_events}, {@code window_results}). Valid only for records written with exactly {@link
 * #schema()} (same parsing fingerprint); the sink uses the {@code RecordDecoder} + {@link
 * RowMapping} path for any other writer schema, and for any record this throws on (bad bytes, a
 * value the table cannot hold), so dead letters keep their stage and message. {@code
 * RowTranscoderTest} checks the bytes equal the {@link RowMapping} path's over generated records.
 * One instance per thread.
 */
public abstract class RowTranscoder {

  private final long fingerprint;
  private BinaryDecoder in;
  private final Utf8 utf8 = new Utf8();
  private final Map<String, String> map = new HashMap<>();
  private ByteSink out;
  private RowBinaryWriter writer;
  private boolean millis;

  protected RowTranscoder(Schema schema) {
    this.fingerprint = SchemaNormalization.parsingFingerprint64(schema);
  }

  /** The transcoder for a table, or null when it has none. */
  public static RowTranscoder forTable(String table) {
    return switch (table) {
      case DecodeEventRows.TABLE -> new DecodeEventTranscoder();
      case WindowResultRows.TABLE -> new WindowResultTranscoder();
      default -> null;
    };
  }

  /** True when records written with {@code writer} can be transcoded. */
  public boolean matches(Schema writer) {
    return SchemaNormalization.parsingFingerprint64(writer) == fingerprint;
  }

  /**
   * Appends one row to {@code sink} (RowBinary; {@code millis}: DateTime64(3) columns). Throws on
   * bad bytes or an unmappable value, possibly after writing part of the row: the caller truncates.
   */
  public final void transcode(
      byte[] data,
      int offset,
      int length,
      RowMapping.Source source,
      Instant insertedAt,
      ByteSink sink,
      boolean millis) {
    if (sink != out || millis != this.millis) {
      this.out = sink;
      this.millis = millis;
      this.writer = new RowBinaryWriter(sink, millis);
    }
    in = DecoderFactory.get().binaryDecoder(data, offset, length, in);
    try {
      row();
    } catch (IOException e) {
      throw new IllegalArgumentException("bad Avro bytes: " + e.getMessage(), e);
    }
    RowMapping.provenance(source, insertedAt, writer);
  }

  /** Reads the record's fields in writer order and writes the columns. */
  protected abstract void row() throws IOException;

  protected final void string() throws IOException {
    Utf8 s = in.readString(utf8);
    byte[] b = s.getBytes();
    int n = s.getByteLength();
    for (int i = 0; i < n; i++) {
      if (b[i] < 0) { // not ASCII: the same String round trip as the RowMapping path
        writer.string(null, new String(b, 0, n, StandardCharsets.UTF_8));
        return;
      }
    }
    out.varUInt(n);
    out.write(b, 0, n);
  }

  /** A {@code ["null", T]} union's branch: false for null (flag written either way). */
  protected final boolean present() throws IOException {
    int i = in.readIndex();
    if (i != 0 && i != 1) {
      throw new IOException("union index " + i + " out of range");
    }
    out.write(i == 0 ? 1 : 0);
    return i == 1;
  }

  protected final void nullableString() throws IOException {
    if (present()) {
      string();
    }
  }

  protected final void int32() throws IOException {
    out.int32(in.readInt());
  }

  protected final void nullableInt32() throws IOException {
    if (present()) {
      int32();
    }
  }

  protected final void int64() throws IOException {
    out.int64(in.readLong());
  }

  protected final void outInt64(long v) {
    out.int64(v);
  }

  protected final void nullableInt64() throws IOException {
    if (present()) {
      int64();
    }
  }

  protected final void nullableFloat64() throws IOException {
    int i = in.readIndex();
    if (i == 0) {
      out.write(1);
    } else if (i == 1) {
      double v = in.readDouble();
      if (Double.isFinite(v)) {
        out.write(0);
        out.int64(Double.doubleToRawLongBits(v));
      } else {
        out.write(1);
      }
    } else {
      throw new IOException("union index " + i + " out of range");
    }
  }

  protected final void bool() throws IOException {
    out.write(in.readBoolean() ? 1 : 0);
  }

  protected final void nullableBool() throws IOException {
    if (present()) {
      bool();
    }
  }

  protected final void enumName(Enum<?>[] symbols) throws IOException {
    int i = in.readEnum();
    if (i < 0 || i >= symbols.length) {
      throw new IOException("enum index " + i + " out of range");
    }
    writer.string(null, symbols[i].name());
  }

  /** timestamp-millis as DateTime (and returns the millis). */
  protected final long dateTime(String column) throws IOException {
    long ms = in.readLong();
    writer.dateTime(column, Instant.ofEpochMilli(ms));
    return ms;
  }

  protected final void dateTimeMs(String column) throws IOException {
    writer.dateTimeMs(column, Instant.ofEpochMilli(in.readLong()));
  }

  protected final void float64Array() throws IOException {
    long n = in.readArrayStart();
    ByteSink tmp = out;
    // count first is unknown with Avro blocks: collect into the map-free path below
    if (n == 0) {
      tmp.varUInt(0);
      return;
    }
    double[] values = doubles;
    int size = 0;
    for (; n != 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        if (size == values.length) {
          values = java.util.Arrays.copyOf(values, size * 2);
          doubles = values;
        }
        values[size++] = in.readDouble();
      }
    }
    tmp.varUInt(size);
    for (int i = 0; i < size; i++) {
      double v = values[i];
      tmp.int64(Double.doubleToRawLongBits(Double.isFinite(v) ? v : Double.NaN));
    }
  }

  protected final void int64Array() throws IOException {
    long n = in.readArrayStart();
    if (n == 0) {
      out.varUInt(0);
      return;
    }
    long[] values = longs;
    int size = 0;
    for (; n != 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        if (size == values.length) {
          values = java.util.Arrays.copyOf(values, size * 2);
          longs = values;
        }
        values[size++] = in.readLong();
      }
    }
    out.varUInt(size);
    for (int i = 0; i < size; i++) {
      out.int64(values[i]);
    }
  }

  /** A {@code map<string>} as sorted {@code _keys} / {@code _values} arrays. */
  protected final void stringMap(String prefix) throws IOException {
    map.clear();
    for (long n = in.readMapStart(); n != 0; n = in.mapNext()) {
      for (long i = 0; i < n; i++) {
        String k = in.readString(utf8).toString();
        map.put(k, in.readString(utf8).toString());
      }
    }
    MapColumns.write(prefix, map, writer);
  }

  private double[] doubles = new double[64];
  private long[] longs = new long[64];
}
