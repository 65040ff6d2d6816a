package io.specwatch.sink;

import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.ColumnWriter;
import io.specwatch.sink.rows.RowBinaryWriter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * RowBinary written the plain way (every string through {@code getBytes(UTF_8)}), as the sink wrote
 * it before the fast path; the reference of {@link RecordDecoderTest}'s comparison.
 */
final class ReferenceRowBinary implements ColumnWriter {
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
