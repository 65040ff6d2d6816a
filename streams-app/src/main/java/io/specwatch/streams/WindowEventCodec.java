package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Value of one entry of the window event log ({@link TopologyNames#WINDOW_EVENTS_STORE}): one
 * window input, as it reached the aggregator.
 *
 * <p>Layout: version byte {@code 0x01}, byte late (0/1), long record timestamp (ms), then the event
 * in Avro single-object encoding of the compiled {@link DecodeEvent} schema (header with the schema
 * fingerprint, so a blob of another schema version fails loudly instead of misreading).
 */
final class WindowEventCodec {
  static final byte VERSION_1 = 1;
  private static final int HEADER = 1 + 1 + 8;

  private WindowEventCodec() {}

  /** One decoded entry. */
  record Entry(WindowInput input, long timestamp) {}

  static byte[] write(WindowInput input, long timestamp) {
    ByteBuffer event;
    try {
      event = DecodeEvent.getEncoder().encode(input.event());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ByteBuffer b = ByteBuffer.allocate(HEADER + event.remaining());
    b.put(VERSION_1).put((byte) (input.late() ? 1 : 0)).putLong(timestamp).put(event);
    return b.array();
  }

  static Entry read(byte[] bytes) {
    if (bytes == null || bytes.length < HEADER || bytes[0] != VERSION_1) {
      throw new SerializationException(
          "window event log entry: unknown version or truncated ("
              + (bytes == null ? "null" : bytes.length + " bytes")
              + ")");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    b.get();
    boolean late = b.get() == 1;
    long timestamp = b.getLong();
    try {
      DecodeEvent event = DecodeEvent.getDecoder().decode(b.slice());
      return new Entry(new WindowInput(event, late), timestamp);
    } catch (IOException | RuntimeException e) {
      throw new SerializationException("window event log entry: bad event", e);
    }
  }
}
