package io.specwatch.streams;

import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.apache.datasketches.common.SketchesException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Compact binary serde of {@link WindowAccumulator} for the window store and its changelog.
 *
 * <p>Layout: one version byte, then the fields in declaration order (longs and doubles, big
 * endian). A new field means a new version; the deserializer keeps reading every older version.
 *
 * <ul>
 *   <li>v1: the 15 sum fields.
 *   <li>v2: v1, then per position: int n, n doubles, long perPositionCycles; then the draft,
 *       verify, cycle ms and accept-length sketches, each an int length and the KLL sketch's own
 *       {@code toByteArray()} bytes (length 0: no value). A v1 blob reads with empty per-position
 *       data and empty sketches.
 *   <li>v3: v2, then long lateEvents.
 *   <li>v4 (written): v3 with each sketch as DDSketch bytes ({@code DDSketch.encode}, index mapping
 *       omitted: 1% cubically interpolated, see {@link WeightedQuantiles}) instead of KLL. v2 and
 *       v3 KLL sketches are converted on read (every retained item with its weight), so a changelog
 *       written before DDSketch restores.
 * </ul>
 */
public final class WindowAccumulatorSerde implements Serde<WindowAccumulator> {
  static final byte VERSION_1 = 1;
  static final byte VERSION_2 = 2;
  static final byte VERSION_3 = 3;
  static final byte VERSION_4 = 4;
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
    byte[][] sketches = {
      a.draftMs.toBytes(), a.verifyMs.toBytes(), a.cycleMs.toBytes(), a.acceptLength.toBytes()
    };
    int size = V1_SIZE + 4 + 8 * a.perPositionAccepted.length + 8 + 8;
    for (byte[] s : sketches) {
      size += 4 + s.length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(VERSION_4);
    writeV1Fields(b, a);
    b.putInt(a.perPositionAccepted.length);
    for (double accepted : a.perPositionAccepted) {
      b.putDouble(accepted);
    }
    b.putLong(a.perPositionCycles);
    for (byte[] s : sketches) {
      b.putInt(s.length).put(s);
    }
    b.putLong(a.lateEvents);
    return b.array();
  }

  /** The v1 format, kept to test that old state still reads. */
  static byte[] writeV1(WindowAccumulator a) {
    ByteBuffer b = ByteBuffer.allocate(V1_SIZE);
    b.put(VERSION_1);
    writeV1Fields(b, a);
    return b.array();
  }

  private static void writeV1Fields(ByteBuffer b, WindowAccumulator a) {
    b.putLong(a.events).putLong(a.cycles);
    b.putDouble(a.acceptLengthWeighted).putLong(a.acceptLengthCycles);
    b.putLong(a.acceptedTokens).putLong(a.draftedTokens);
    b.putDouble(a.cycleMsWeighted).putLong(a.cycleMsCycles);
    b.putDouble(a.throughputTimed).putDouble(a.throughputIntervalMs);
    b.putLong(a.throughputTimedEvents);
    b.putDouble(a.throughputUntimed).putLong(a.throughputUntimedEvents);
    b.putDouble(a.batchSizeWeighted).putLong(a.batchSizeCycles);
  }

  static WindowAccumulator read(byte[] bytes) {
    if (bytes.length == 0 || bytes[0] < VERSION_1 || bytes[0] > VERSION_4) {
      throw new SerializationException(
          "unknown WindowAccumulator version " + (bytes.length == 0 ? "(empty)" : bytes[0]));
    }
    if (bytes[0] == VERSION_1 && bytes.length != V1_SIZE) {
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
      if (bytes[0] >= VERSION_2) {
        readV2Fields(b, a, bytes[0] >= VERSION_4);
      }
      if (bytes[0] >= VERSION_3) {
        a.lateEvents = b.getLong();
      }
      if (b.hasRemaining()) {
        throw new SerializationException(
            "WindowAccumulator v" + bytes[0] + ": " + b.remaining() + " trailing bytes");
      }
      return a;
    } catch (BufferUnderflowException
        | IllegalArgumentException
        | IndexOutOfBoundsException
        | UncheckedIOException
        | SketchesException e) {
      throw new SerializationException("truncated WindowAccumulator", e);
    }
  }

  private static void readV2Fields(ByteBuffer b, WindowAccumulator a, boolean ddSketch) {
    int positions = b.getInt();
    if (positions < 0 || positions > b.remaining() / 8) {
      throw new SerializationException("WindowAccumulator v2: bad position count " + positions);
    }
    a.perPositionAccepted = new double[positions];
    for (int i = 0; i < positions; i++) {
      a.perPositionAccepted[i] = b.getDouble();
    }
    a.perPositionCycles = b.getLong();
    a.draftMs = readSketch(b, ddSketch);
    a.verifyMs = readSketch(b, ddSketch);
    a.cycleMs = readSketch(b, ddSketch);
    a.acceptLength = readSketch(b, ddSketch);
  }

  private static WeightedQuantiles readSketch(ByteBuffer b, boolean ddSketch) {
    int length = b.getInt();
    if (length < 0 || length > b.remaining()) {
      throw new SerializationException("WindowAccumulator v2: bad sketch length " + length);
    }
    byte[] sketch = new byte[length];
    b.get(sketch);
    return ddSketch
        ? WeightedQuantiles.fromBytes(sketch)
        : WeightedQuantiles.fromLegacyKllBytes(sketch);
  }
}
