package io.specwatch.sink;

import io.specwatch.schemas.WindowResult;
import java.io.ByteArrayOutputStream;
import java.time.Instant;

/** JSONEachRow lines waiting for the next insert, and when the first one arrived. */
final class RowBuffer {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
  private int rows;
  private long firstAddedNanos;

  void add(WindowResult result, WindowResultRow.Source source, Instant insertedAt) {
    if (rows == 0) {
      firstAddedNanos = System.nanoTime();
    }
    WindowResultRow.write(bytes, result, source, insertedAt);
    rows++;
  }

  int rows() {
    return rows;
  }

  boolean isEmpty() {
    return rows == 0;
  }

  long ageNanos() {
    return rows == 0 ? 0 : System.nanoTime() - firstAddedNanos;
  }

  byte[] toByteArray() {
    return bytes.toByteArray();
  }

  void clear() {
    bytes.reset();
    rows = 0;
  }
}
