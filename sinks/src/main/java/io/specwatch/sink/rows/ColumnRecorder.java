package io.specwatch.sink.rows;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Records the column names a mapping writes, in order (tests; mapping self-checks). */
public final class ColumnRecorder implements ColumnWriter {

  private final List<String> names = new ArrayList<>();

  public List<String> names() {
    return List.copyOf(names);
  }

  private void add(String column) {
    names.add(column);
  }

  @Override
  public void string(String column, String value) {
    add(column);
  }

  @Override
  public void nullableString(String column, String value) {
    add(column);
  }

  @Override
  public void int32(String column, int value) {
    add(column);
  }

  @Override
  public void nullableInt32(String column, Integer value) {
    add(column);
  }

  @Override
  public void int64(String column, long value) {
    add(column);
  }

  @Override
  public void nullableInt64(String column, Long value) {
    add(column);
  }

  @Override
  public void float64(String column, double value) {
    add(column);
  }

  @Override
  public void nullableFloat64(String column, Double value) {
    add(column);
  }

  @Override
  public void bool(String column, boolean value) {
    add(column);
  }

  @Override
  public void nullableBool(String column, Boolean value) {
    add(column);
  }

  @Override
  public void dateTime(String column, Instant value) {
    add(column);
  }

  @Override
  public void dateTimeMs(String column, Instant value) {
    add(column);
  }

  @Override
  public void float64Array(String column, List<Double> values) {
    add(column);
  }

  @Override
  public void int64Array(String column, List<Long> values) {
    add(column);
  }

  @Override
  public void stringArray(String column, List<String> values) {
    add(column);
  }
}
