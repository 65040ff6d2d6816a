package io.specwatch.sink.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/**
 * ClickHouse {@code JSONEachRow}: one JSON object per row and a newline. Times are {@code
 * yyyy-MM-dd HH:mm:ss} UTC. Kept beside RowBinary for comparison ({@code --insert-format json}) and
 * for readable debugging; the benchmark in the README shows why RowBinary is the default.
 */
public final class JsonEachRowWriter implements ColumnWriter {

  private static final JsonFactory JSON = JsonFactory.builder().build();

  private final OutputStream out;
  private final boolean millis;
  private JsonGenerator g;

  /** For 18.16 tables ({@code DateTime} everywhere). */
  public JsonEachRowWriter(OutputStream out) {
    this(out, false);
  }

  /** {@code millis}: {@code ${DateTimeMs}} columns are {@code DateTime64(3)} (modern servers). */
  public JsonEachRowWriter(OutputStream out, boolean millis) {
    this.out = out;
    this.millis = millis;
  }

  /** Opens the row's object. */
  public void startRow() {
    try {
      g = JSON.createGenerator(out);
      g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      g.writeStartObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes the row's object and writes the newline. */
  public void endRow() {
    try {
      g.writeEndObject();
      g.close();
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      g = null;
    }
  }

  @Override
  public void string(String column, String value) {
    run(() -> g.writeStringField(column, value));
  }

  @Override
  public void nullableString(String column, String value) {
    run(
        () -> {
          if (value == null) {
            g.writeNullField(column);
          } else {
            g.writeStringField(column, value);
          }
        });
  }

  @Override
  public void int32(String column, int value) {
    run(() -> g.writeNumberField(column, value));
  }

  @Override
  public void nullableInt32(String column, Integer value) {
    run(
        () -> {
          if (value == null) {
            g.writeNullField(column);
          } else {
            g.writeNumberField(column, value.intValue());
          }
        });
  }

  @Override
  public void int64(String column, long value) {
    run(() -> g.writeNumberField(column, value));
  }

  @Override
  public void nullableInt64(String column, Long value) {
    run(
        () -> {
          if (value == null) {
            g.writeNullField(column);
          } else {
            g.writeNumberField(column, value.longValue());
          }
        });
  }

  @Override
  public void float64(String column, double value) {
    run(
        () -> {
          if (Double.isFinite(value)) {
            g.writeNumberField(column, value);
          } else {
            g.writeStringField(column, "nan");
          }
        });
  }

  @Override
  public void nullableFloat64(String column, Double value) {
    run(
        () -> {
          if (value == null || !Double.isFinite(value)) {
            g.writeNullField(column);
          } else {
            g.writeNumberField(column, value.doubleValue());
          }
        });
  }

  @Override
  public void bool(String column, boolean value) {
    run(() -> g.writeNumberField(column, value ? 1 : 0));
  }

  @Override
  public void nullableBool(String column, Boolean value) {
    run(
        () -> {
          if (value == null) {
            g.writeNullField(column);
          } else {
            g.writeNumberField(column, value ? 1 : 0);
          }
        });
  }

  @Override
  public void dateTime(String column, Instant value) {
    String text = DateTimes.text(column, value);
    run(() -> g.writeStringField(column, text));
  }

  @Override
  public void dateTimeMs(String column, Instant value) {
    String text = millis ? DateTimes.textMillis(column, value) : DateTimes.text(column, value);
    run(() -> g.writeStringField(column, text));
  }

  @Override
  public void float64Array(String column, List<Double> values) {
    run(
        () -> {
          g.writeArrayFieldStart(column);
          for (Double v : values) {
            // Array(Float64) has no NULL: a missing or non-finite share is written as nan.
            if (v == null || !Double.isFinite(v)) {
              g.writeString("nan");
            } else {
              g.writeNumber(v);
            }
          }
          g.writeEndArray();
        });
  }

  @Override
  public void int64Array(String column, List<Long> values) {
    run(
        () -> {
          g.writeArrayFieldStart(column);
          for (Long v : values) {
            g.writeNumber(v == null ? 0 : v);
          }
          g.writeEndArray();
        });
  }

  @Override
  public void stringArray(String column, List<String> values) {
    run(
        () -> {
          g.writeArrayFieldStart(column);
          for (String v : values) {
            g.writeString(v == null ? "" : v);
          }
          g.writeEndArray();
        });
  }

  private interface Io {
    void run() throws IOException;
  }

  private static void run(Io io) {
    try {
      io.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
