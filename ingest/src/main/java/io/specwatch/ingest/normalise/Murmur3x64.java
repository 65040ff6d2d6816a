package io.specwatch.ingest.normalise;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3 x64 128 (seed 0) for {@link EventIds}: the same function as commons-codec's {@code
 * MurmurHash3.hash128x64(data, 0, length, 0)} (which {@link EventIds#ofMaterial} still calls, and
 * {@code EventIdsTest} and {@code EventIdsProperties} compare with), written here for two things
 * that library has no way to do:
 *
 * <ul>
 *   <li>resume from a saved state: the material of every line of a file starts with the same host,
 *       source and identity, whose whole 16-byte blocks are mixed once per source ({@link
 *       #mixBlocks}), not once per line;
 *   <li>read each block's two longs with one little-endian load each (a {@link VarHandle}), where
 *       the library assembles them byte by byte.
 * </ul>
 *
 * Together the event id took ~16 % of the shipper's parse threads before (2026-12-05 JFR).
 */
final class Murmur3x64 {

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3x64() {}

  /**
   * Mixes the whole 16-byte blocks of {@code data[from, to)} into {@code state} ({h1, h2}; {0, 0}
   * to start); {@code from} is where the blocks start, {@code to - from} a multiple of 16.
   */
  static void mixBlocks(byte[] data, int from, int to, long[] state) {
    long h1 = state[0];
    long h2 = state[1];
    for (int i = from; i < to; i += 16) {
      long k1 = (long) LONG_LE.get(data, i);
      long k2 = (long) LONG_LE.get(data, i + 8);
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    state[0] = h1;
    state[1] = h2;
  }

  /**
   * The hash of {@code data[0, length)} into {@code out} ({h1, h2}), given {@code state}: the
   * blocks of {@code data[0, from)} already mixed ({@code from} a multiple of 16, 0 for none).
   */
  static void hash(byte[] data, int from, int length, long[] state, long[] out) {
    int blocksEnd = from + ((length - from) & ~15);
    out[0] = state[0];
    out[1] = state[1];
    mixBlocks(data, from, blocksEnd, out);
    long h1 = out[0];
    long h2 = out[1];
    int tail = blocksEnd;
    int rest = length - blocksEnd; // 0-15 bytes: k1 takes the first 8, k2 the others
    if (rest > 8) {
      long k2 = 0;
      for (int i = rest - 1; i >= 8; i--) {
        k2 ^= (long) (data[tail + i] & 0xff) << (8 * (i - 8));
      }
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
    }
    if (rest > 0) {
      long k1 = 0;
      if (rest >= 8) {
        k1 = (long) LONG_LE.get(data, tail);
      } else {
        for (int i = rest - 1; i >= 0; i--) {
          k1 ^= (long) (data[tail + i] & 0xff) << (8 * i);
        }
      }
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
    }
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    out[0] = h1;
    out[1] = h2;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
