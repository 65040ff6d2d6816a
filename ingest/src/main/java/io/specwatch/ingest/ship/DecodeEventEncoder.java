package io.specwatch.ingest.ship;

import io.specwatch.schemas.DecodeEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A hand-written Avro binary encoder of {@link DecodeEvent} in the Confluent wire format (magic
 * byte, 4-byte schema id, body): the same bytes as {@code SpecificDatumWriter} with the generated
 * schema (checked by {@code DecodeEventEncoderProperties} over generated events, and at run time by
 * {@link FastEventSerializer} on the first event), at a fraction of its CPU (the generic writer's
 * per-field union resolution and schema lookups were ~15 % of the shipper). Field order follows
 * {@code DecodeEvent.avsc}; a schema change that this encoder does not follow is caught by the
 * property test and by the run-time self-check, which falls back to the generic writer.
 *
 * <p>Not thread-safe: one instance per thread (it reuses its buffer).
 */
public final class DecodeEventEncoder {

  /** The schema field names this encoder writes, in order: compared with the schema at start. */
  static final List<String> FIELDS =
      List.of(
          "eventId",
          "deploymentId",
          "host",
          "source",
          "sourceOffset",
          "lineNumber",
          "engine",
          "format",
          "kind",
          "eventTime",
          "ingestTime",
          "rank",
          "tpRank",
          "dpRank",
          "epRank",
          "requestId",
          "promptCategory",
          "intervalMs",
          "decodePasses",
          "cycles",
          "runningRequests",
          "queuedRequests",
          "tokenUsage",
          "acceptLength",
          "acceptRate",
          "rawAcceptRate",
          "rawAcceptRateDefinition",
          "acceptedTokens",
          "draftedTokens",
          "emittedTokens",
          "perPositionAcceptance",
          "perPositionAccepted",
          "genThroughputTokS",
          "draftMs",
          "verifyMs",
          "overheadMs",
          "cycleMs",
          "cudaGraph",
          "specEnabled",
          "runContextId",
          "rawFields");

  private byte[] buf = new byte[1024];
  private int pos;

  /** Whether the generated schema still has exactly the fields this encoder writes, in order. */
  public static boolean matchesSchema() {
    return DecodeEvent.getClassSchema().getFields().stream()
        .map(f -> f.name())
        .toList()
        .equals(FIELDS);
  }

  /**
   * The event in the Confluent wire format with {@code schemaId}.
   *
   * @throws NullPointerException when a non-nullable field is null (the generic writer reports it)
   */
  public byte[] encode(int schemaId, DecodeEvent e) {
    pos = 0;
    ensure(5);
    buf[pos++] = 0;
    buf[pos++] = (byte) (schemaId >>> 24);
    buf[pos++] = (byte) (schemaId >>> 16);
    buf[pos++] = (byte) (schemaId >>> 8);
    buf[pos++] = (byte) schemaId;
    string(e.getEventId());
    string(e.getDeploymentId());
    string(e.getHost());
    string(e.getSource());
    optLong(e.getSourceOffset());
    optLong(e.getLineNumber());
    varLong(e.getEngine().ordinal());
    string(e.getFormat());
    varLong(e.getKind().ordinal());
    instant(e.getEventTime());
    instant(e.getIngestTime());
    optString(e.getRank());
    optInt(e.getTpRank());
    optInt(e.getDpRank());
    optInt(e.getEpRank());
    optString(e.getRequestId());
    optString(e.getPromptCategory());
    optDouble(e.getIntervalMs());
    optLong(e.getDecodePasses());
    optLong(e.getCycles());
    optInt(e.getRunningRequests());
    optInt(e.getQueuedRequests());
    optDouble(e.getTokenUsage());
    optDouble(e.getAcceptLength());
    optDouble(e.getAcceptRate());
    optDouble(e.getRawAcceptRate());
    optString(e.getRawAcceptRateDefinition());
    optLong(e.getAcceptedTokens());
    optLong(e.getDraftedTokens());
    optLong(e.getEmittedTokens());
    List<Double> acceptance = e.getPerPositionAcceptance();
    if (!acceptance.isEmpty()) {
      varLong(acceptance.size());
      for (Double d : acceptance) {
        dbl(d);
      }
    }
    varLong(0);
    List<Long> accepted = e.getPerPositionAccepted();
    if (!accepted.isEmpty()) {
      varLong(accepted.size());
      for (Long l : accepted) {
        varLong(l);
      }
    }
    varLong(0);
    optDouble(e.getGenThroughputTokS());
    optDouble(e.getDraftMs());
    optDouble(e.getVerifyMs());
    optDouble(e.getOverheadMs());
    optDouble(e.getCycleMs());
    Boolean graph = e.getCudaGraph();
    if (graph == null) {
      varLong(0);
    } else {
      varLong(1);
      bool(graph);
    }
    bool(e.getSpecEnabled());
    optString(e.getRunContextId());
    Map<String, String> raw = e.getRawFields();
    if (!raw.isEmpty()) {
      varLong(raw.size());
      int n = 0;
      for (Map.Entry<String, String> entry : raw.entrySet()) {
        string(entry.getKey());
        string(entry.getValue());
        n++;
      }
      if (n != raw.size()) {
        throw new IllegalStateException("rawFields changed while it was written");
      }
    }
    varLong(0);
    return Arrays.copyOf(buf, pos);
  }

  private void ensure(int n) {
    if (pos + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
    }
  }

  private void string(String s) {
    int n = s.length();
    if (n == 0) {
      varLong(0);
      return;
    }
    if (n < 64) {
      // ASCII (every char < 0x80) is its own UTF-8 and its byte length is n, whose zig-zag varint
      // is one byte: written in place, no encoded copy; anything else goes the general way
      ensure(n + 1);
      int p = pos + 1;
      int i = 0;
      for (; i < n; i++) {
        char c = s.charAt(i);
        if (c >= 0x80) {
          break;
        }
        buf[p++] = (byte) c;
      }
      if (i == n) {
        buf[pos] = (byte) (n << 1);
        pos = p;
        return;
      }
    }
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    varLong(bytes.length);
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  private void optString(String s) {
    if (s == null) {
      varLong(0);
    } else {
      varLong(1);
      string(s);
    }
  }

  private void optLong(Long v) {
    if (v == null) {
      varLong(0);
    } else {
      varLong(1);
      varLong(v);
    }
  }

  private void optInt(Integer v) {
    if (v == null) {
      varLong(0);
    } else {
      varLong(1);
      varLong(v);
    }
  }

  private void optDouble(Double v) {
    if (v == null) {
      varLong(0);
    } else {
      varLong(1);
      dbl(v);
    }
  }

  private void instant(Instant t) {
    varLong(t.toEpochMilli());
  }

  private void bool(boolean b) {
    ensure(1);
    buf[pos++] = (byte) (b ? 1 : 0);
  }

  /** Avro long (and int: same zig-zag varint for values in int range). */
  private void varLong(long v) {
    ensure(10);
    long n = (v << 1) ^ (v >> 63);
    while ((n & ~0x7FL) != 0) {
      buf[pos++] = (byte) ((n & 0x7F) | 0x80);
      n >>>= 7;
    }
    buf[pos++] = (byte) n;
  }

  private void dbl(double d) {
    ensure(8);
    long bits = Double.doubleToRawLongBits(d);
    for (int i = 0; i < 8; i++) {
      buf[pos++] = (byte) (bits >>> (8 * i));
    }
  }
}
