package io.specwatch.ingest.normalise;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * Deterministic event ids, as documented on DecodeEvent.eventId: 32 lowercase hex chars, the
 * 128-bit MurmurHash3 (x64 variant, seed 0) of the material {@code host \0 source \0 sourceIdentity
 * \0 offset \0 line} (strings as UTF-8, the offset in decimal ASCII), written as its two 64-bit
 * halves h1, h2, each as 8 little-endian bytes: the same text as Guava's {@code
 * Hashing.murmur3_128().hashBytes(material).toString()} or Python's {@code
 * mmh3.hash_bytes(material).hex()}.
 *
 * <p>Why not a cryptographic hash: ids must be deterministic (a re-shipped line gets the same id)
 * and practically collision-free between honest lines (2^-128 per pair; a billion ids give a
 * collision probability of about 10^-21), nothing more; nobody gains by forging a log line's id.
 * SHA-256 cost the shipper a sixth of its CPU under C1 (whose compiled code has no SHA intrinsic).
 * Ids were SHA-256 (first 32 hex chars) of the same material before 2026-12-01: a line re-shipped
 * by a newer shipper after one shipped it with an older version gets a new id.
 *
 * <p>Hot path (one call per metric line): a per-thread buffer keeps the fixed part of the material
 * (host, source, identity) of the last source seen, and the hash state after its whole 16-byte
 * blocks ({@link Murmur3x64}); offset and line are written after it and only the rest is hashed,
 * without other copies than the line's UTF-8 bytes. {@link #ofMaterial} hashes with commons-codec's
 * {@code MurmurHash3}, the reference the tests compare the hot path with.
 */
public final class EventIds {

  private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final ThreadLocal<Material> MATERIAL = ThreadLocal.withInitial(Material::new);

  private EventIds() {}

  public static String of(
      String host, String source, String sourceIdentity, long offset, String line) {
    return MATERIAL.get().id(host, source, sourceIdentity, offset, line);
  }

  /**
   * {@link #of} of a line given as the first {@code length} bytes of {@code utf8}, which must be
   * the UTF-8 encoding of the line text (the shipper's lines: their bytes as read).
   */
  public static String ofUtf8(
      String host, String source, String sourceIdentity, long offset, byte[] utf8, int length) {
    return MATERIAL.get().id(host, source, sourceIdentity, offset, utf8, length);
  }

  /**
   * The id of a material given whole (tests and tools: what {@link #of} computes from its parts).
   */
  static String ofMaterial(byte[] material) {
    long[] h = MurmurHash3.hash128x64(material, 0, material.length, 0);
    return hex(h, new byte[32]);
  }

  /** h1 then h2, each as its 8 little-endian bytes, each byte as two lowercase hex digits. */
  private static String hex(long[] h, byte[] text) {
    for (int half = 0; half < 2; half++) {
      long v = h[half];
      for (int i = 0; i < 8; i++) {
        int b = (int) (v >>> (8 * i)) & 0xff;
        text[16 * half + 2 * i] = HEX_DIGITS[b >>> 4];
        text[16 * half + 2 * i + 1] = HEX_DIGITS[b & 15];
      }
    }
    return new String(text, StandardCharsets.ISO_8859_1);
  }

  /** One thread's material buffer; the fixed part of the last source stays at its start. */
  private static final class Material {
    private String host;
    private String source;
    private String sourceIdentity;
    private int fixedLength;
    // the whole 16-byte blocks of the fixed part, and the hash state after them
    private int fixedBlocks;
    private final long[] fixedState = new long[2];
    private final long[] hash = new long[2];
    private byte[] buf = new byte[512];
    private final byte[] text = new byte[32];

    String id(String h, String s, String i, long offset, String line) {
      byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
      return id(h, s, i, offset, utf8, utf8.length);
    }

    String id(String h, String s, String i, long offset, byte[] line, int length) {
      if (host == null || !host.equals(h) || !source.equals(s) || !sourceIdentity.equals(i)) {
        fixedLength = 0;
        fixedLength = put(h.getBytes(StandardCharsets.UTF_8), 0);
        buf[fixedLength++] = 0;
        fixedLength = put(s.getBytes(StandardCharsets.UTF_8), fixedLength);
        buf[fixedLength++] = 0;
        fixedLength = put(i.getBytes(StandardCharsets.UTF_8), fixedLength);
        buf[fixedLength++] = 0;
        host = h;
        source = s;
        sourceIdentity = i;
        fixedBlocks = fixedLength & ~15;
        fixedState[0] = 0;
        fixedState[1] = 0;
        Murmur3x64.mixBlocks(buf, 0, fixedBlocks, fixedState);
      }
      int pos = putDecimal(offset, fixedLength);
      buf[pos++] = 0;
      pos = put(line, length, pos);
      Murmur3x64.hash(buf, fixedBlocks, pos, fixedState, hash);
      return hex(hash, text);
    }

    /** Writes bytes at pos (growing the buffer, leaving one spare byte); returns the end. */
    private int put(byte[] bytes, int pos) {
      return put(bytes, bytes.length, pos);
    }

    private int put(byte[] bytes, int length, int pos) {
      ensure(pos + length + 1);
      System.arraycopy(bytes, 0, buf, pos, length);
      return pos + length;
    }

    /** Writes the decimal text of v at pos, as Long.toString would; returns the end. */
    private int putDecimal(long v, int pos) {
      if (v < 0) {
        return put(Long.toString(v).getBytes(StandardCharsets.US_ASCII), pos);
      }
      int digits = 1;
      for (long rest = v / 10; rest > 0; rest /= 10) {
        digits++;
      }
      ensure(pos + digits + 1);
      long rest = v;
      for (int k = pos + digits - 1; k >= pos; k--) {
        buf[k] = (byte) ('0' + (int) (rest % 10));
        rest /= 10;
      }
      return pos + digits;
    }

    private void ensure(int capacity) {
      if (capacity > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(capacity, 2 * buf.length));
      }
    }
  }
}
