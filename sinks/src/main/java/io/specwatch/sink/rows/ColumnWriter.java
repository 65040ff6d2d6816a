package io.specwatch.sink.rows;

import java.time.Instant;
import java.util.List;

/**
 * Writes the columns of one row in table order. A {@link RowMapping} calls it once per column; the
 * implementations encode RowBinary ({@link RowBinaryWriter}) or JSONEachRow ({@link
 * JsonEachRowWriter}), or record the column names ({@link ColumnRecorder}). Nullable doubles that
 * are not finite are written as NULL; array elements that are null or not finite as {@code nan}.
 */
public interface ColumnWriter {

  void string(String column, String value);

  void nullableString(String column, String value);

  void int32(String column, int value);

  void nullableInt32(String column, Integer value);

  void int64(String column, long value);

  void nullableInt64(String column, Long value);

  void float64(String column, double value);

  void nullableFloat64(String column, Double value);

  /** {@code UInt8} 1/0. */
  void bool(String column, boolean value);

  /** {@code Nullable(UInt8)}. */
  void nullableBool(String column, Boolean value);

  /** {@code DateTime('UTC')}, second precision. */
  void dateTime(String column, Instant value);

  /**
   * A {@code ${DateTimeMs}} column of the migrations: {@code DateTime64(3, 'UTC')} on modern
   * servers, {@code DateTime('UTC')} on 18.16. Writers built for the modern dialect keep the
   * milliseconds.
   */
  void dateTimeMs(String column, Instant value);

  void float64Array(String column, List<Double> values);

  void int64Array(String column, List<Long> values);

  void stringArray(String column, List<String> values);
}
