package io.specwatch.serde;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/** Confluent wire format: magic byte 0, 4-byte big-endian schema id, then the Avro binary body. */
public final class WireFormat {
  public static final byte MAGIC_BYTE = 0;
  public static final int HEADER_SIZE = 5;

  private WireFormat() {}

  /** Reads and checks the header; the buffer is left positioned at the Avro body. */
  public static int readSchemaId(String topic, ByteBuffer buffer) {
    if (buffer.remaining() < HEADER_SIZE) {
      throw new SerializationException(
          "Record on topic "
              + topic
              + " has "
              + buffer.remaining()
              + " bytes, fewer than the 5-byte Confluent wire-format header");
    }
    byte magic = buffer.get();
    if (magic != MAGIC_BYTE) {
      throw new SerializationException(
          "Record on topic " + topic + " has unknown magic byte " + magic + ", expected 0");
    }
    return buffer.getInt();
  }
}
