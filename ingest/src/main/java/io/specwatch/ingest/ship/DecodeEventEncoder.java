package io.specwatch.ingest.ship;

import io.specwatch.ingest.parse.RawFields;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.DecodeEventLayout;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

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
  static final List<String> FIELDS = DecodeEventLayout.FIELDS;

  private byte[] buf = new byte[1024];
  private int pos;

  // slots of string(s, slot): the last String instance written there and its encoding
  private static final int DEPLOYMENT = 0;
  private static final int HOST = 1;
  private static final int SOURCE = 2;
  private static final int FORMAT = 3;
  private static final int RANK = 4;
  private static final int DEFINITION = 5;
  private static final int CONTEXT = 6;
  private final String[] cachedStrings = new String[7];
  private final byte[][] cachedBytes = new byte[7][];

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
    string(e.getDeploymentId(), DEPLOYMENT);
    string(e.getHost(), HOST);
    string(e.getSource(), SOURCE);
    optLong(e.getSourceOffset());
    optLong(e.getLineNumber());
    varLong(e.getEngine().ordinal());
    string(e.getFormat(), FORMAT);
    varLong(e.getKind().ordinal());
    instant(e.getEventTime());
    instant(e.getIngestTime());
    optString(e.getRank(), RANK);
    optInt(e.getTpRank());
    optInt(e.getDpRank());
    optInt(e.getEpRank());
    optString(e.getRequestId(), -1);
    optString(e.getPromptCategory(), -1);
    optDouble(e.getIntervalMs());
    optLong(e.getDecodePasses());
    optLong(e.getCycles());
    optInt(e.getRunningRequests());
    optInt(e.getQueuedRequests());
    optDouble(e.getTokenUsage());
    optDouble(e.getAcceptLength());
    optDouble(e.getAcceptRate());
    optDouble(e.getRawAcceptRate());
    optString(e.getRawAcceptRateDefinition(), DEFINITION);
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
    optString(e.getRunContextId(), CONTEXT);
    // a parser's RawFields carries its encoding, computed once (usually on a parsing thread of
    // LogFileShipper); other maps (scrape, generate) are encoded through a copy
    byte[] raw = RawFields.copyOf(e.getRawFields()).avroBinary();
    ensure(raw.length);
    System.arraycopy(raw, 0, buf, pos, raw.length);
    pos += raw.length;
    return Arrays.copyOf(buf, pos);
  }

  private void ensure(int n) {
    if (pos + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
    }
  }

  private void string(String s) {
    // getBytes (a byte scan and an array copy for Latin-1 text) costs a third of a charAt loop
    // under C1, which does not inline String.charAt's checks
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    varLong(bytes.length);
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  /**
   * A string field whose value is usually the same event after event (the source's deployment, host
   * and path, format ids, rank tags, the run context in force): its encoding is kept per slot and
   * reused while the value is the same.
   */
  private void string(String s, int slot) {
    if (slot < 0) {
      string(s);
      return;
    }
    byte[] bytes = cachedBytes[slot];
    String cached = cachedStrings[slot];
    // the same instance, or an equal copy (a rank tag is a new String on every line): equals on
    // these short strings costs less than encoding and copying them again
    if (cached != s && !s.equals(cached)) {
      int from = pos;
      string(s);
      bytes = Arrays.copyOfRange(buf, from, pos);
      cachedStrings[slot] = s;
      cachedBytes[slot] = bytes;
      return;
    }
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  private void optString(String s, int slot) {
    if (union(s)) {
      string(s, slot);
    }
  }

  private void optLong(Long v) {
    if (union(v)) {
      varLong(v);
    }
  }

  private void optInt(Integer v) {
    if (union(v)) {
      varLong(v);
    }
  }

  private void optDouble(Double v) {
    if (union(v)) {
      dbl(v);
    }
  }

  /**
   * The branch of a {@code ["null", T]} union: one byte, 0 (null) or 2 (zig-zag of branch 1).
   * Whether the value follows.
   */
  private boolean union(Object v) {
    ensure(1);
    buf[pos++] = v == null ? (byte) 0 : (byte) 2;
    return v != null;
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
    pos = RawFields.writeVarLong(buf, pos, v);
  }

  private void dbl(double d) {
    ensure(8);
    long bits = Double.doubleToRawLongBits(d);
    for (int i = 0; i < 8; i++) {
      buf[pos++] = (byte) (bits >>> (8 * i));
    }
  }
}
