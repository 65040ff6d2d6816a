package io.specwatch.ingest.ship;

import io.specwatch.ingest.parse.RawFields;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growing buffer of Avro binary, the writing half of the hand encoders ({@link
 * DecodeEventEncoder}, {@link SglangEventWriter}): zig-zag varints, little-endian doubles, one-byte
 * {@code ["null", T]} union branches, length-prefixed UTF-8 strings, and strings whose encoding is
 * kept per slot while the value repeats. Not thread-safe: one instance per thread.
 */
abstract class AvroOut {

  protected byte[] buf = new byte[1024];
  protected int pos;

  private final String[] cachedStrings;
  private final byte[][] cachedBytes;

  /** A buffer with {@code slots} cached strings (see {@link #string(String, int)}). */
  protected AvroOut(int slots) {
    cachedStrings = new String[slots];
    cachedBytes = new byte[slots][];
  }

  protected final void ensure(int n) {
    if (pos + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
    }
  }

  protected final void bytes(byte[] b, int from, int to) {
    ensure(to - from);
    System.arraycopy(b, from, buf, pos, to - from);
    pos += to - from;
  }

  protected final void string(String s) {
    // getBytes (a byte scan and an array copy for Latin-1 text) costs a third of a charAt loop
    // under C1, which does not inline String.charAt's checks
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    varLong(bytes.length);
    bytes(bytes, 0, bytes.length);
  }

  /** A string of ASCII chars only (the caller knows): no UTF-8 encoder, no copy. */
  @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) keeps the low 8 bits: ASCII
  protected final void ascii(String s) {
    int n = s.length();
    varLong(n);
    ensure(n);
    s.getBytes(0, n, buf, pos);
    pos += n;
  }

  /**
   * A string field whose value is usually the same event after event (the source's deployment, host
   * and path, format ids, rank tags, the run context in force): its encoding is kept per slot and
   * reused while the value is the same; slot -1 keeps nothing.
   */
  protected final void string(String s, int slot) {
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
      cachedStrings[slot] = s;
      cachedBytes[slot] = Arrays.copyOfRange(buf, from, pos);
      return;
    }
    bytes(bytes, 0, bytes.length);
  }

  protected final void optString(String s, int slot) {
    if (union(s)) {
      string(s, slot);
    }
  }

  protected final void optLong(Long v) {
    if (union(v)) {
      varLong(v);
    }
  }

  protected final void optInt(Integer v) {
    if (union(v)) {
      varLong(v);
    }
  }

  protected final void optDouble(Double v) {
    if (union(v)) {
      dbl(v);
    }
  }

  /**
   * The branch of a {@code ["null", T]} union: one byte, 0 (null) or 2 (zig-zag of branch 1).
   * Whether the value follows.
   */
  protected final boolean union(Object v) {
    ensure(1);
    buf[pos++] = v == null ? (byte) 0 : (byte) 2;
    return v != null;
  }

  /** The branch of a {@code ["null", T]} union whose value follows. */
  protected final void nonNull() {
    ensure(1);
    buf[pos++] = 2;
  }

  protected final void bool(boolean b) {
    ensure(1);
    buf[pos++] = (byte) (b ? 1 : 0);
  }

  /** Avro long (and int: same zig-zag varint for values in int range). */
  protected final void varLong(long v) {
    ensure(10);
    pos = RawFields.writeVarLong(buf, pos, v);
  }

  protected final void dbl(double d) {
    ensure(8);
    pos = writeDouble(buf, pos, d);
  }

  /** Writes d as an Avro double (8 bytes, little-endian) at pos; returns the position after it. */
  static int writeDouble(byte[] buf, int pos, double d) {
    long bits = Double.doubleToRawLongBits(d);
    for (int i = 0; i < 8; i++) {
      buf[pos++] = (byte) (bits >>> (8 * i));
    }
    return pos;
  }

  /** The bytes {@link RawFields#writeVarLong} writes for v. */
  static int varLongSize(long v) {
    long n = (v << 1) ^ (v >> 63);
    int size = 1;
    while ((n & ~0x7FL) != 0) {
      size++;
      n >>>= 7;
    }
    return size;
  }

  /** The Confluent wire format's header: magic byte 0 and the 4-byte schema id. */
  protected final void header(int schemaId) {
    ensure(5);
    buf[pos++] = 0;
    buf[pos++] = (byte) (schemaId >>> 24);
    buf[pos++] = (byte) (schemaId >>> 16);
    buf[pos++] = (byte) (schemaId >>> 8);
    buf[pos++] = (byte) schemaId;
  }
}
