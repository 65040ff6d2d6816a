package io.specwatch.streams;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary serde of {@link DeploymentWindow} for the window store and its changelog.
 *
 * <p>Layout: version byte {@code 0x10}, int row count, then per row: byte specEnabled (0/1),
 * category and bucket (each int length + UTF-8), int length + the row's {@link
 * WindowAccumulatorSerde} bytes. A blob starting with 1, 2 or 3 is a single accumulator written by
 * the release before breakdowns (it windowed speculative events only): it reads as the speculative
 * total row, so a changelog of that release restores.
 */
public final class DeploymentWindowSerde implements Serde<DeploymentWindow> {
  static final byte VERSION_ROWS_1 = 0x10;

  @Override
  public Serializer<DeploymentWindow> serializer() {
    return (topic, w) -> w == null ? null : write(w);
  }

  @Override
  public Deserializer<DeploymentWindow> deserializer() {
    return (topic, bytes) -> bytes == null ? null : read(bytes);
  }

  static byte[] write(DeploymentWindow w) {
    int size = 1 + 4;
    byte[][] rows = new byte[w.rows.size()][];
    byte[][] categories = new byte[w.rows.size()][];
    byte[][] buckets = new byte[w.rows.size()][];
    int i = 0;
    for (var e : w.rows.entrySet()) {
      categories[i] = e.getKey().promptCategory().getBytes(StandardCharsets.UTF_8);
      buckets[i] = e.getKey().batchBucket().getBytes(StandardCharsets.UTF_8);
      rows[i] = WindowAccumulatorSerde.write(e.getValue());
      size += 1 + 4 + categories[i].length + 4 + buckets[i].length + 4 + rows[i].length;
      i++;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(VERSION_ROWS_1).putInt(rows.length);
    i = 0;
    for (BreakdownKey key : w.rows.keySet()) {
      b.put((byte) (key.specEnabled() ? 1 : 0));
      b.putInt(categories[i].length).put(categories[i]);
      b.putInt(buckets[i].length).put(buckets[i]);
      b.putInt(rows[i].length).put(rows[i]);
      i++;
    }
    return b.array();
  }

  static DeploymentWindow read(byte[] bytes) {
    if (bytes.length == 0) {
      throw new SerializationException("empty DeploymentWindow");
    }
    SortedMap<BreakdownKey, WindowAccumulator> rows = new TreeMap<>();
    if (bytes[0] != VERSION_ROWS_1) {
      rows.put(BreakdownKey.total(true), WindowAccumulatorSerde.read(bytes));
      return new DeploymentWindow(rows);
    }
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
      int count = b.getInt();
      if (count < 0 || count > b.remaining()) {
        throw new SerializationException("DeploymentWindow: bad row count " + count);
      }
      for (int i = 0; i < count; i++) {
        boolean spec = b.get() == 1;
        String category = new String(chunk(b), StandardCharsets.UTF_8);
        String bucket = new String(chunk(b), StandardCharsets.UTF_8);
        rows.put(new BreakdownKey(spec, category, bucket), WindowAccumulatorSerde.read(chunk(b)));
      }
      if (b.hasRemaining()) {
        throw new SerializationException("DeploymentWindow: " + b.remaining() + " trailing bytes");
      }
      return new DeploymentWindow(rows);
    } catch (BufferUnderflowException e) {
      throw new SerializationException("truncated DeploymentWindow", e);
    }
  }

  private static byte[] chunk(ByteBuffer b) {
    int length = b.getInt();
    if (length < 0 || length > b.remaining()) {
      throw new SerializationException("DeploymentWindow: bad length " + length);
    }
    byte[] out = new byte[length];
    b.get(out);
    return out;
  }
}
