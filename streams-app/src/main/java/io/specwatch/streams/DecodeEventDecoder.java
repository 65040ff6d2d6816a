package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import io.specwatch.serde.DecodeEventLayout;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A hand-written Avro binary decoder of {@link DecodeEvent} bodies written with the generated
 * schema (the reader's: same fields, types and order), at a fraction of the generic reader's CPU
 * (its per-field union resolution and setters were ~10 % of the stream thread). The mirror image of
 * ingest's {@code DecodeEventEncoder}; {@code DecodeEventDecoderProperties} checks it against
 * {@code SpecificDatumReader} over generated events. {@link FastDecodeEventDeserializer} uses it
 * only for writer schemas whose parsing canonical form equals the generated schema's (so the binary
 * layout is this one) and falls back to the generic reader on any other schema or error.
 *
 * <p>Stateless and thread-safe: every call has its own cursor.
 */
final class DecodeEventDecoder {
  /** The schema this decoder reads (fields in this order): {@code DecodeEvent.avsc}. */
  static final Schema SCHEMA = DecodeEvent.getClassSchema();

  /** The field names this decoder reads, in order: compared with the generated schema. */
  static final List<String> FIELDS = DecodeEventLayout.FIELDS;

  /**
   * Whether the generated class has the fields this decoder reads: false when a different {@code
   * DecodeEvent} class is on the class path (e.g. a test's v2), and then nothing uses the decoder.
   */
  static final boolean MATCHES_GENERATED_SCHEMA =
      SCHEMA.getFields().stream().map(Schema.Field::name).toList().equals(FIELDS);

  private static final Engine[] ENGINES = Engine.values();
  private static final EventKind[] KINDS = EventKind.values();

  private final byte[] buf;
  private int pos;
  private final int end;

  private DecodeEventDecoder(byte[] buf, int offset, int length) {
    this.buf = buf;
    this.pos = offset;
    this.end = offset + length;
  }

  /**
   * The event in {@code buf[offset, offset + length)}.
   *
   * @throws IllegalArgumentException or an index exception on malformed or truncated input
   */
  static DecodeEvent decode(byte[] buf, int offset, int length) {
    DecodeEventDecoder d = new DecodeEventDecoder(buf, offset, length);
    DecodeEvent e = d.event();
    if (d.pos != d.end) {
      throw new IllegalArgumentException((d.end - d.pos) + " bytes after the event");
    }
    return e;
  }

  private DecodeEvent event() {
    // argument order = field order of DecodeEvent.avsc (Java evaluates arguments left to right)
    return new DecodeEvent(
        string(), // eventId
        string(), // deploymentId
        string(), // host
        string(), // source
        optLong(), // sourceOffset
        optLong(), // lineNumber
        ENGINES[index(ENGINES.length)], // engine
        string(), // format
        KINDS[index(KINDS.length)], // kind
        Instant.ofEpochMilli(readLong()), // eventTime
        Instant.ofEpochMilli(readLong()), // ingestTime
        optString(), // rank
        optInt(), // tpRank
        optInt(), // dpRank
        optInt(), // epRank
        optString(), // requestId
        optString(), // promptCategory
        optDouble(), // intervalMs
        optLong(), // decodePasses
        optLong(), // cycles
        optInt(), // runningRequests
        optInt(), // queuedRequests
        optDouble(), // tokenUsage
        optDouble(), // acceptLength
        optDouble(), // acceptRate
        optDouble(), // rawAcceptRate
        optString(), // rawAcceptRateDefinition
        optLong(), // acceptedTokens
        optLong(), // draftedTokens
        optLong(), // emittedTokens
        doubles(), // perPositionAcceptance
        longs(), // perPositionAccepted
        optDouble(), // genThroughputTokS
        optDouble(), // draftMs
        optDouble(), // verifyMs
        optDouble(), // overheadMs
        optDouble(), // cycleMs
        optBoolean(), // cudaGraph
        readBoolean(), // specEnabled
        optString(), // runContextId
        stringMap()); // rawFields
  }

  private long readLong() {
    long raw = 0;
    int shift = 0;
    while (true) {
      byte b = buf[check(pos++)];
      raw |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        break;
      }
      shift += 7;
      if (shift > 63) {
        throw new IllegalArgumentException("varint longer than 10 bytes");
      }
    }
    return (raw >>> 1) ^ -(raw & 1);
  }

  private int readInt() {
    long v = readLong();
    if (v != (int) v) {
      throw new IllegalArgumentException("int out of range: " + v);
    }
    return (int) v;
  }

  private int index(int size) {
    int i = readInt();
    if (i < 0 || i >= size) {
      throw new IllegalArgumentException("index " + i + " outside 0.." + (size - 1));
    }
    return i;
  }

  private int check(int p) {
    if (p >= end) {
      throw new IllegalArgumentException("truncated event");
    }
    return p;
  }

  private double readDouble() {
    check(pos + 7);
    long bits = 0;
    for (int i = 7; i >= 0; i--) {
      bits = (bits << 8) | (buf[pos + i] & 0xffL);
    }
    pos += 8;
    return Double.longBitsToDouble(bits);
  }

  private boolean readBoolean() {
    byte b = buf[check(pos++)];
    if (b != 0 && b != 1) {
      throw new IllegalArgumentException("boolean byte " + b);
    }
    return b == 1;
  }

  private String string() {
    int n = readInt();
    if (n < 0 || n > end - pos) {
      throw new IllegalArgumentException("string length " + n);
    }
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  /** Union ["null", x]: false for null, true when the x value follows. */
  private boolean present() {
    return index(2) == 1;
  }

  private String optString() {
    return present() ? string() : null;
  }

  private Long optLong() {
    return present() ? readLong() : null;
  }

  private Integer optInt() {
    return present() ? readInt() : null;
  }

  private Double optDouble() {
    return present() ? readDouble() : null;
  }

  private Boolean optBoolean() {
    return present() ? readBoolean() : null;
  }

  /** Item count of the next array or map block (0 ends it); skips a negative count's byte size. */
  private int blockCount() {
    long n = readLong();
    if (n < 0) {
      n = -n;
      readLong();
    }
    if (n > end - pos) {
      throw new IllegalArgumentException("block of " + n + " items");
    }
    return (int) n;
  }

  private List<Double> doubles() {
    List<Double> list = new ArrayList<>();
    for (int n = blockCount(); n > 0; n = blockCount()) {
      for (int i = 0; i < n; i++) {
        list.add(readDouble());
      }
    }
    return list;
  }

  private List<Long> longs() {
    List<Long> list = new ArrayList<>();
    for (int n = blockCount(); n > 0; n = blockCount()) {
      for (int i = 0; i < n; i++) {
        list.add(readLong());
      }
    }
    return list;
  }

  private Map<String, String> stringMap() {
    Map<String, String> map = new HashMap<>();
    for (int n = blockCount(); n > 0; n = blockCount()) {
      for (int i = 0; i < n; i++) {
        String k = string();
        map.put(k, string());
      }
    }
    return map;
  }
}
