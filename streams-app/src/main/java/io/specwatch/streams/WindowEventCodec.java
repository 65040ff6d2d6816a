package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Value of one entry of the window event log ({@link TopologyNames#WINDOW_EVENTS_STORE}): one
 * window input, as it reached the aggregator, reduced to what the window reads.
 *
 * <p>Only the fields {@link DeploymentWindow#add} reads (via {@link BreakdownKey#of} and {@link
 * WindowAccumulator#add}) are kept: specEnabled, promptCategory, runningRequests, cycles,
 * acceptLength, accepted and drafted tokens, cycleMs, genThroughputTokS, intervalMs, draftMs,
 * verifyMs, perPositionAccepted, perPositionAcceptance. A read event carries those fields and its
 * event id, nothing else (host, times, other ids are null): it is replayed into a window, never
 * forwarded. A field the window starts reading must be added here, in a new version.
 *
 * <p>Layout v2: version byte {@code 0x02}, byte late (0/1), long record timestamp (ms), the event
 * id (a kind byte: {@code 0} none, {@code 1} 32 lowercase hex chars packed into 16 bytes, {@code 2}
 * any other id as int length + UTF-8), short presence bits (one per nullable field, in the order
 * above), then the present values (int, long, double big endian; category: int length + UTF-8;
 * lists: int size, then per element a presence byte and the value). About 115 bytes for an SGLang
 * interval event (354 bytes as Avro). The event id lets the aggregator count an id at most once per
 * window, also when it rebuilds a window from the log.
 *
 * <p>Layout v1 (written before the event id was kept) is v2 without the id; it is still read (an
 * entry without id is never taken for a duplicate).
 */
final class WindowEventCodec {
  static final byte VERSION_1 = 1;
  static final byte VERSION_2 = 2;

  private static final byte ID_NONE = 0;
  private static final byte ID_HEX = 1;
  private static final byte ID_TEXT = 2;

  private WindowEventCodec() {}

  /** One decoded entry. */
  record Entry(WindowInput input, long timestamp) {}

  private static final int SPEC = 1;
  private static final int CATEGORY = 1 << 1;
  private static final int RUNNING = 1 << 2;
  private static final int CYCLES = 1 << 3;
  private static final int ACCEPT_LENGTH = 1 << 4;
  private static final int ACCEPTED = 1 << 5;
  private static final int DRAFTED = 1 << 6;
  private static final int CYCLE_MS = 1 << 7;
  private static final int THROUGHPUT = 1 << 8;
  private static final int INTERVAL = 1 << 9;
  private static final int DRAFT_MS = 1 << 10;
  private static final int VERIFY_MS = 1 << 11;
  private static final int PER_POSITION_ACCEPTED = 1 << 12;
  private static final int PER_POSITION_ACCEPTANCE = 1 << 13;

  static byte[] write(WindowInput input, long timestamp) {
    DecodeEvent e = input.event();
    byte[] category =
        e.getPromptCategory() == null
            ? null
            : e.getPromptCategory().getBytes(StandardCharsets.UTF_8);
    List<Long> counts = e.getPerPositionAccepted();
    List<Double> shares = e.getPerPositionAcceptance();
    String id = e.getEventId();
    boolean packed = id != null && EventIdSet.isPackedHex(id);
    byte[] idText = id == null || packed ? null : id.getBytes(StandardCharsets.UTF_8);
    int size = 1 + 1 + 8 + 2 + 4 + 10 * 8 + (category == null ? 0 : 4 + category.length);
    size += 1 + (packed ? 16 : 0) + (idText == null ? 0 : 4 + idText.length);
    size += counts == null ? 0 : 4 + 9 * counts.size();
    size += shares == null ? 0 : 4 + 9 * shares.size();
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(VERSION_2).put((byte) (input.late() ? 1 : 0)).putLong(timestamp);
    if (packed) {
      b.put(ID_HEX).putLong(EventIdSet.hexLong(id, 0)).putLong(EventIdSet.hexLong(id, 16));
    } else if (idText != null) {
      b.put(ID_TEXT).putInt(idText.length).put(idText);
    } else {
      b.put(ID_NONE);
    }
    int bits =
        (e.getSpecEnabled() ? SPEC : 0)
            | (category != null ? CATEGORY : 0)
            | (e.getRunningRequests() != null ? RUNNING : 0)
            | (e.getCycles() != null ? CYCLES : 0)
            | (e.getAcceptLength() != null ? ACCEPT_LENGTH : 0)
            | (e.getAcceptedTokens() != null ? ACCEPTED : 0)
            | (e.getDraftedTokens() != null ? DRAFTED : 0)
            | (e.getCycleMs() != null ? CYCLE_MS : 0)
            | (e.getGenThroughputTokS() != null ? THROUGHPUT : 0)
            | (e.getIntervalMs() != null ? INTERVAL : 0)
            | (e.getDraftMs() != null ? DRAFT_MS : 0)
            | (e.getVerifyMs() != null ? VERIFY_MS : 0)
            | (counts != null ? PER_POSITION_ACCEPTED : 0)
            | (shares != null ? PER_POSITION_ACCEPTANCE : 0);
    b.putShort((short) bits);
    if (category != null) {
      b.putInt(category.length).put(category);
    }
    if (e.getRunningRequests() != null) {
      b.putInt(e.getRunningRequests());
    }
    if (e.getCycles() != null) {
      b.putLong(e.getCycles());
    }
    putDouble(b, e.getAcceptLength());
    if (e.getAcceptedTokens() != null) {
      b.putLong(e.getAcceptedTokens());
    }
    if (e.getDraftedTokens() != null) {
      b.putLong(e.getDraftedTokens());
    }
    putDouble(b, e.getCycleMs());
    putDouble(b, e.getGenThroughputTokS());
    putDouble(b, e.getIntervalMs());
    putDouble(b, e.getDraftMs());
    putDouble(b, e.getVerifyMs());
    if (counts != null) {
      b.putInt(counts.size());
      for (Long c : counts) {
        b.put((byte) (c == null ? 0 : 1)).putLong(c == null ? 0L : c);
      }
    }
    if (shares != null) {
      b.putInt(shares.size());
      for (Double s : shares) {
        b.put((byte) (s == null ? 0 : 1)).putDouble(s == null ? 0.0 : s);
      }
    }
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  private static void putDouble(ByteBuffer b, Double value) {
    if (value != null) {
      b.putDouble(value);
    }
  }

  static Entry read(byte[] bytes) {
    if (bytes == null || bytes.length < 12 || (bytes[0] != VERSION_1 && bytes[0] != VERSION_2)) {
      throw new SerializationException(
          "window event log entry: unknown version or truncated ("
              + (bytes == null ? "null" : bytes.length + " bytes")
              + ")");
    }
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
      boolean late = b.get() == 1;
      long timestamp = b.getLong();
      String id = bytes[0] == VERSION_1 ? null : readId(b);
      int bits = b.getShort() & 0xffff;
      DecodeEvent e = new DecodeEvent();
      e.put("eventId", id);
      e.put("specEnabled", (bits & SPEC) != 0);
      if ((bits & CATEGORY) != 0) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
          throw new SerializationException("window event log entry: bad category length " + n);
        }
        byte[] category = new byte[n];
        b.get(category);
        e.put("promptCategory", new String(category, StandardCharsets.UTF_8));
      }
      if ((bits & RUNNING) != 0) {
        e.put("runningRequests", b.getInt());
      }
      if ((bits & CYCLES) != 0) {
        e.put("cycles", b.getLong());
      }
      e.put("acceptLength", getDouble(b, bits, ACCEPT_LENGTH));
      if ((bits & ACCEPTED) != 0) {
        e.put("acceptedTokens", b.getLong());
      }
      if ((bits & DRAFTED) != 0) {
        e.put("draftedTokens", b.getLong());
      }
      e.put("cycleMs", getDouble(b, bits, CYCLE_MS));
      e.put("genThroughputTokS", getDouble(b, bits, THROUGHPUT));
      e.put("intervalMs", getDouble(b, bits, INTERVAL));
      e.put("draftMs", getDouble(b, bits, DRAFT_MS));
      e.put("verifyMs", getDouble(b, bits, VERIFY_MS));
      if ((bits & PER_POSITION_ACCEPTED) != 0) {
        int n = listSize(b);
        List<Long> counts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          boolean present = b.get() == 1;
          long v = b.getLong();
          counts.add(present ? v : null);
        }
        e.put("perPositionAccepted", counts);
      }
      if ((bits & PER_POSITION_ACCEPTANCE) != 0) {
        int n = listSize(b);
        List<Double> shares = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          boolean present = b.get() == 1;
          double v = b.getDouble();
          shares.add(present ? v : null);
        }
        e.put("perPositionAcceptance", shares);
      }
      if (b.hasRemaining()) {
        throw new SerializationException(
            "window event log entry: " + b.remaining() + " trailing bytes");
      }
      return new Entry(new WindowInput(e, late), timestamp);
    } catch (BufferUnderflowException e) {
      throw new SerializationException("window event log entry: truncated", e);
    }
  }

  private static String readId(ByteBuffer b) {
    byte kind = b.get();
    switch (kind) {
      case ID_NONE:
        return null;
      case ID_HEX:
        long hi = b.getLong();
        return EventIdSet.hex(hi, b.getLong());
      case ID_TEXT:
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
          throw new SerializationException("window event log entry: bad event id length " + n);
        }
        byte[] text = new byte[n];
        b.get(text);
        return new String(text, StandardCharsets.UTF_8);
      default:
        throw new SerializationException("window event log entry: unknown event id kind " + kind);
    }
  }

  private static Double getDouble(ByteBuffer b, int bits, int bit) {
    return (bits & bit) != 0 ? b.getDouble() : null;
  }

  private static int listSize(ByteBuffer b) {
    int n = b.getInt();
    if (n < 0 || n > b.remaining() / 9) {
      throw new SerializationException("window event log entry: bad list size " + n);
    }
    return n;
  }
}
