package io.specwatch.sink.bench;

import io.specwatch.sink.rows.ColumnWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * ClickHouse TabSeparated, for the benchmark's baseline ({@code clickhouse-client ... FORMAT TSV}
 * inserting the same rows as the sink). {@code \N} is NULL; arrays as {@code [1,2]} / {@code
 * ['a','b']}.
 */
final class TsvWriter implements ColumnWriter {

  private static final DateTimeFormatter TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private final Writer out;
  private boolean first = true;

  TsvWriter(Writer out) {
    this.out = out;
  }

  void endRow() {
    write("\n");
    first = true;
  }

  private void cell(String text) {
    if (!first) {
      write("\t");
    }
    first = false;
    write(text);
  }

  private void write(String s) {
    try {
      out.write(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\\' -> b.append("\\\\");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static String quoted(String s) {
    return "'" + escape(s).replace("'", "\\'") + "'";
  }

  private static String number(double v) {
    return Double.isFinite(v) ? Double.toString(v) : "nan";
  }

  @Override
  public void string(String column, String value) {
    cell(escape(value));
  }

  @Override
  public void nullableString(String column, String value) {
    cell(value == null ? "\\N" : escape(value));
  }

  @Override
  public void int32(String column, int value) {
    cell(Integer.toString(value));
  }

  @Override
  public void nullableInt32(String column, Integer value) {
    cell(value == null ? "\\N" : value.toString());
  }

  @Override
  public void int64(String column, long value) {
    cell(Long.toString(value));
  }

  @Override
  public void nullableInt64(String column, Long value) {
    cell(value == null ? "\\N" : value.toString());
  }

  @Override
  public void float64(String column, double value) {
    cell(number(value));
  }

  @Override
  public void nullableFloat64(String column, Double value) {
    cell(value == null || !Double.isFinite(value) ? "\\N" : number(value));
  }

  @Override
  public void bool(String column, boolean value) {
    cell(value ? "1" : "0");
  }

  @Override
  public void nullableBool(String column, Boolean value) {
    cell(value == null ? "\\N" : (value ? "1" : "0"));
  }

  @Override
  public void dateTime(String column, Instant value) {
    cell(TEXT.format(value));
  }

  @Override
  public void dateTimeMs(String column, Instant value) {
    dateTime(column, value); // the benchmark runs on 18.16: DateTime
  }

  @Override
  public void float64Array(String column, List<Double> values) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      b.append(i == 0 ? "" : ",")
          .append(number(values.get(i) == null ? Double.NaN : values.get(i)));
    }
    cell(b.append(']').toString());
  }

  @Override
  public void int64Array(String column, List<Long> values) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      b.append(i == 0 ? "" : ",").append(values.get(i) == null ? 0 : values.get(i));
    }
    cell(b.append(']').toString());
  }

  @Override
  public void stringArray(String column, List<String> values) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      b.append(i == 0 ? "" : ",").append(quoted(values.get(i) == null ? "" : values.get(i)));
    }
    cell(b.append(']').toString());
  }
}
