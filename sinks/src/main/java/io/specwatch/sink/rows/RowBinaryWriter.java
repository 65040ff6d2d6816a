package io.specwatch.sink.rows;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * ClickHouse {@code RowBinary}: columns back to back, little-endian numbers, LEB128 length before
 * strings and arrays, a 1/0 NULL flag before Nullable values, DateTime as UInt32 seconds. Column
 * names are not encoded: the INSERT's column list gives the order. Available on 18.16 and modern
 * servers alike (unlike RowBinaryWithNamesAndTypes).
 */
public final class RowBinaryWriter implements ColumnWriter {

  private final ByteSink out;
  private final boolean millis;

  /** For 18.16 tables ({@code DateTime} everywhere). */
  public RowBinaryWriter(ByteSink out) {
    this(out, false);
  }

  /** {@code millis}: {@code ${DateTimeMs}} columns are {@code DateTime64(3)} (modern servers). */
  public RowBinaryWriter(ByteSink out, boolean millis) {
    this.out = out;
    this.millis = millis;
  }

  @Override
  public void string(String column, String value) {
    if (out.ascii(value)) {
      return; // written without the getBytes copy (most values: ids, hosts, categories)
    }
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.varUInt(bytes.length);
    out.write(bytes, 0, bytes.length);
  }

  @Override
  public void nullableString(String column, String value) {
    if (nullFlag(value == null)) {
      string(column, value);
    }
  }

  @Override
  public void int32(String column, int value) {
    out.int32(value);
  }

  @Override
  public void nullableInt32(String column, Integer value) {
    if (nullFlag(value == null)) {
      out.int32(value);
    }
  }

  @Override
  public void int64(String column, long value) {
    out.int64(value);
  }

  @Override
  public void nullableInt64(String column, Long value) {
    if (nullFlag(value == null)) {
      out.int64(value);
    }
  }

  @Override
  public void float64(String column, double value) {
    out.int64(Double.doubleToRawLongBits(value));
  }

  @Override
  public void nullableFloat64(String column, Double value) {
    if (nullFlag(value == null || !Double.isFinite(value))) {
      float64(column, value);
    }
  }

  @Override
  public void bool(String column, boolean value) {
    out.write(value ? 1 : 0);
  }

  @Override
  public void nullableBool(String column, Boolean value) {
    if (nullFlag(value == null)) {
      bool(column, value);
    }
  }

  @Override
  public void dateTime(String column, Instant value) {
    out.int32((int) DateTimes.epochSeconds(column, value));
  }

  @Override
  public void dateTimeMs(String column, Instant value) {
    if (millis) {
      DateTimes.epochSeconds(column, value);
      out.int64(value.toEpochMilli()); // DateTime64(3): Int64 milliseconds
    } else {
      dateTime(column, value);
    }
  }

  @Override
  public void float64Array(String column, List<Double> values) {
    out.varUInt(values.size());
    for (Double v : values) {
      float64(column, v == null || !Double.isFinite(v) ? Double.NaN : v);
    }
  }

  @Override
  public void int64Array(String column, List<Long> values) {
    out.varUInt(values.size());
    for (Long v : values) {
      out.int64(v == null ? 0 : v);
    }
  }

  @Override
  public void stringArray(String column, List<String> values) {
    out.varUInt(values.size());
    for (String v : values) {
      string(column, v == null ? "" : v);
    }
  }

  /** Writes the Nullable flag; true when a value follows. */
  private boolean nullFlag(boolean isNull) {
    out.write(isNull ? 1 : 0);
    return !isNull;
  }
}
