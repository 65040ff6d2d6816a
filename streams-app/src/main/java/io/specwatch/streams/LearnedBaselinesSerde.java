package io.specwatch.streams;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary serde of {@link LearnedBaselines} for the baseline store: version byte 1, int count, then
 * per entry long windowStartMs, double stepMs, long cycles, int length + UTF-8 deploymentId.
 */
public final class LearnedBaselinesSerde implements Serde<LearnedBaselines> {
  static final byte VERSION_1 = 1;

  @Override
  public Serializer<LearnedBaselines> serializer() {
    return (topic, l) -> l == null ? null : write(l);
  }

  @Override
  public Deserializer<LearnedBaselines> deserializer() {
    return (topic, bytes) -> bytes == null ? null : read(bytes);
  }

  static byte[] write(LearnedBaselines l) {
    List<byte[]> names = new ArrayList<>();
    int size = 1 + 4;
    for (LearnedBaselines.Entry e : l.entries()) {
      byte[] name = e.deploymentId().getBytes(StandardCharsets.UTF_8);
      names.add(name);
      size += 8 + 8 + 8 + 4 + name.length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(VERSION_1).putInt(l.entries().size());
    for (int i = 0; i < l.entries().size(); i++) {
      LearnedBaselines.Entry e = l.entries().get(i);
      b.putLong(e.windowStartMs()).putDouble(e.stepMs()).putLong(e.cycles());
      b.putInt(names.get(i).length).put(names.get(i));
    }
    return b.array();
  }

  static LearnedBaselines read(byte[] bytes) {
    if (bytes.length == 0 || bytes[0] != VERSION_1) {
      throw new SerializationException(
          "unknown LearnedBaselines version " + (bytes.length == 0 ? "(empty)" : bytes[0]));
    }
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
      int n = b.getInt();
      if (n < 0 || n > b.remaining()) {
        throw new SerializationException("LearnedBaselines: bad entry count " + n);
      }
      List<LearnedBaselines.Entry> entries = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        long start = b.getLong();
        double step = b.getDouble();
        long cycles = b.getLong();
        int len = b.getInt();
        if (len < 0 || len > b.remaining()) {
          throw new SerializationException("LearnedBaselines: bad name length " + len);
        }
        byte[] name = new byte[len];
        b.get(name);
        entries.add(
            new LearnedBaselines.Entry(
                start, step, cycles, new String(name, StandardCharsets.UTF_8)));
      }
      if (b.hasRemaining()) {
        throw new SerializationException("LearnedBaselines: " + b.remaining() + " trailing bytes");
      }
      return new LearnedBaselines(entries);
    } catch (BufferUnderflowException e) {
      throw new SerializationException("truncated LearnedBaselines", e);
    }
  }
}
