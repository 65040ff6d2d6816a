package io.specwatch.sink.bench;

import io.specwatch.sink.rows.ColumnWriter;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Binds one row's columns to a JDBC {@code INSERT ... VALUES (?, ...)} (benchmark variant). */
final class JdbcWriter implements ColumnWriter {

  private static final DateTimeFormatter TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private final PreparedStatement ps;
  private int index;

  JdbcWriter(PreparedStatement ps) {
    this.ps = ps;
  }

  void endRow() throws SQLException {
    ps.addBatch();
    index = 0;
  }

  private interface Bind {
    void bind(int i) throws SQLException;
  }

  private void set(Bind b) {
    try {
      b.bind(++index);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void string(String column, String value) {
    set(i -> ps.setString(i, value));
  }

  @Override
  public void nullableString(String column, String value) {
    set(i -> ps.setString(i, value));
  }

  @Override
  public void int32(String column, int value) {
    set(i -> ps.setInt(i, value));
  }

  @Override
  public void nullableInt32(String column, Integer value) {
    set(i -> ps.setObject(i, value, Types.INTEGER));
  }

  @Override
  public void int64(String column, long value) {
    set(i -> ps.setLong(i, value));
  }

  @Override
  public void nullableInt64(String column, Long value) {
    set(i -> ps.setObject(i, value, Types.BIGINT));
  }

  @Override
  public void float64(String column, double value) {
    set(i -> ps.setDouble(i, value));
  }

  @Override
  public void nullableFloat64(String column, Double value) {
    Double v = value == null || !Double.isFinite(value) ? null : value;
    set(i -> ps.setObject(i, v, Types.DOUBLE));
  }

  @Override
  public void bool(String column, boolean value) {
    set(i -> ps.setInt(i, value ? 1 : 0));
  }

  @Override
  public void nullableBool(String column, Boolean value) {
    Integer v = value == null ? null : (value ? 1 : 0);
    set(i -> ps.setObject(i, v, Types.INTEGER));
  }

  @Override
  public void dateTime(String column, Instant value) {
    if (column.equals("inserted_at")) {
      return; // a literal in the statement (the legacy driver needs one non-? token)
    }
    set(i -> ps.setString(i, TEXT.format(value)));
  }

  @Override
  public void dateTimeMs(String column, Instant value) {
    dateTime(column, value); // the benchmark runs on 18.16: DateTime
  }

  @Override
  public void float64Array(String column, List<Double> values) {
    double[] a = values.stream().mapToDouble(v -> v == null ? Double.NaN : v).toArray();
    set(i -> ps.setObject(i, a));
  }

  @Override
  public void int64Array(String column, List<Long> values) {
    long[] a = values.stream().mapToLong(v -> v == null ? 0 : v).toArray();
    set(i -> ps.setObject(i, a));
  }

  @Override
  public void stringArray(String column, List<String> values) {
    String[] a = values.toArray(new String[0]);
    set(i -> ps.setObject(i, a));
  }
}
