package io.specwatch.streams;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Compact binary serde of {@link WindowAccumulator} for the window store and its changelog.
 *
 * <p>Layout: one version byte, then the fields in declaration order (longs and doubles, big
 * endian). A new field means a new version; the deserializer keeps reading every older version.
 */
public final class WindowAccumulatorSerde implements Serde<WindowAccumulator> {
  static final byte VERSION_1 = 1;
  private static final int V1_SIZE = 1 + 15 * 8;

  @Override
  public Serializer<WindowAccumulator> serializer() {
    return (topic, acc) -> acc == null ? null : write(acc);
  }

  @Override
  public Deserializer<WindowAccumulator> deserializer() {
    return (topic, bytes) -> bytes == null ? null : read(bytes);
  }

  static byte[] write(WindowAccumulator a) {
    ByteBuffer b = ByteBuffer.allocate(V1_SIZE);
    b.put(VERSION_1);
    b.putLong(a.events).putLong(a.cycles);
    b.putDouble(a.acceptLengthWeighted).putLong(a.acceptLengthCycles);
    b.putLong(a.acceptedTokens).putLong(a.draftedTokens);
    b.putDouble(a.cycleMsWeighted).putLong(a.cycleMsCycles);
    b.putDouble(a.throughputTimed).putDouble(a.throughputIntervalMs);
    b.putLong(a.throughputTimedEvents);
    b.putDouble(a.throughputUntimed).putLong(a.throughputUntimedEvents);
    b.putDouble(a.batchSizeWeighted).putLong(a.batchSizeCycles);
    return b.array();
  }

  static WindowAccumulator read(byte[] bytes) {
    if (bytes.length == 0 || bytes[0] != VERSION_1) {
      throw new SerializationException(
          "unknown WindowAccumulator version " + (bytes.length == 0 ? "(empty)" : bytes[0]));
    }
    if (bytes.length != V1_SIZE) {
      throw new SerializationException(
          "WindowAccumulator v1 needs " + V1_SIZE + " bytes, got " + bytes.length);
    }
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
      WindowAccumulator a = new WindowAccumulator();
      a.events = b.getLong();
      a.cycles = b.getLong();
      a.acceptLengthWeighted = b.getDouble();
      a.acceptLengthCycles = b.getLong();
      a.acceptedTokens = b.getLong();
      a.draftedTokens = b.getLong();
      a.cycleMsWeighted = b.getDouble();
      a.cycleMsCycles = b.getLong();
      a.throughputTimed = b.getDouble();
      a.throughputIntervalMs = b.getDouble();
      a.throughputTimedEvents = b.getLong();
      a.throughputUntimed = b.getDouble();
      a.throughputUntimedEvents = b.getLong();
      a.batchSizeWeighted = b.getDouble();
      a.batchSizeCycles = b.getLong();
      return a;
    } catch (BufferUnderflowException e) {
      throw new SerializationException("truncated WindowAccumulator", e);
    }
  }
}
