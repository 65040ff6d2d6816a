package io.specwatch.streams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;

/**
 * One deployment's tumbling window, ordered by start, then deployment: the order windows close and
 * are emitted in.
 *
 * @param deploymentId the deployment (record key)
 * @param startMs the window start, epoch ms
 */
record WindowKey(String deploymentId, long startMs) implements Comparable<WindowKey> {
  /**
   * Store key: one type byte, 8 bytes start (big endian), then the deploymentId in UTF-8 (9 bytes
   * or more).
   */
  Bytes toBytes(byte type) {
    byte[] id = deploymentId.getBytes(StandardCharsets.UTF_8);
    return Bytes.wrap(
        ByteBuffer.allocate(9 + id.length).put(type).putLong(startMs).put(id).array());
  }

  /** The key {@link #toBytes} wrote; {@code bytes} has at least 9 bytes. */
  static WindowKey fromBytes(byte[] bytes) {
    long start = ByteBuffer.wrap(bytes, 1, 8).getLong();
    return new WindowKey(new String(bytes, 9, bytes.length - 9, StandardCharsets.UTF_8), start);
  }

  /**
   * Same components (hand-written: the record's generated equals goes through an invokedynamic
   * bootstrap per call site; the open-window index looks a key up for every event).
   */
  @Override
  public boolean equals(Object o) {
    return this == o
        || (o instanceof WindowKey k
            && startMs == k.startMs
            && Objects.equals(deploymentId, k.deploymentId));
  }

  /** The record's own formula (31 x the id's hash + the start's), so hash orders do not change. */
  @Override
  public int hashCode() {
    return 31 * Objects.hashCode(deploymentId) + Long.hashCode(startMs);
  }

  /** By start, then deployment (hand-written: no boxing or lambdas per comparison). */
  @Override
  public int compareTo(WindowKey o) {
    int c = Long.compare(startMs, o.startMs);
    return c != 0 ? c : deploymentId.compareTo(o.deploymentId);
  }
}
