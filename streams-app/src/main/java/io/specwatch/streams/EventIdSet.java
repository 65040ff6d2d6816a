package io.specwatch.streams;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * The event ids one open window already counted, so a re-sent event (same {@code
 * DecodeEvent.eventId}, e.g. lines after the last checkpoint of a shipper killed with SIGKILL) is
 * counted at most once per window.
 *
 * <p>An id of 32 lowercase hex chars (what ingest computes) is kept as two longs in an
 * open-addressing table of {@code long}s (linear probing, load factor at most 3/4): 16 bytes per
 * slot, so 21-32 bytes per id, plus the array header, no object per id. Any other id (tests,
 * foreign producers) goes to a {@link HashSet} of its text (~100 bytes per id).
 */
final class EventIdSet {
  private static final int MIN_SLOTS = 8;

  /** Slot i holds (table[2i], table[2i+1]); (0, 0) marks a free slot. */
  private long[] table;

  private int size;
  private boolean hasZero;
  private Set<String> other;

  /** Adds {@code id}; false when it was already there. A null id is never a duplicate. */
  boolean add(String id) {
    if (id == null) {
      return true;
    }
    if (isPackedHex(id)) {
      return add(hexLong(id, 0), hexLong(id, 16));
    }
    if (other == null) {
      other = new HashSet<>();
    }
    return other.add(id);
  }

  /** Adds the packed id (hi, lo); false when it was already there. */
  boolean add(long hi, long lo) {
    if (hi == 0 && lo == 0) {
      boolean added = !hasZero;
      hasZero = true;
      return added;
    }
    if (table == null) {
      table = new long[2 * MIN_SLOTS];
    } else if (4 * (size + 1) > 3 * (table.length / 2)) {
      grow();
    }
    if (!insert(table, hi, lo)) {
      return false;
    }
    size++;
    return true;
  }

  /** Ids held. */
  int size() {
    return size + (hasZero ? 1 : 0) + (other == null ? 0 : other.size());
  }

  private static boolean insert(long[] t, long hi, long lo) {
    int mask = t.length / 2 - 1;
    int i = mix(hi, lo) & mask;
    while (true) {
      long h = t[2 * i];
      long l = t[2 * i + 1];
      if (h == 0 && l == 0) {
        t[2 * i] = hi;
        t[2 * i + 1] = lo;
        return true;
      }
      if (h == hi && l == lo) {
        return false;
      }
      i = (i + 1) & mask;
    }
  }

  private void grow() {
    long[] old = table;
    long[] t = new long[old.length * 2];
    for (int i = 0; i < old.length; i += 2) {
      if (old[i] != 0 || old[i + 1] != 0) {
        insert(t, old[i], old[i + 1]);
      }
    }
    table = t;
  }

  private static int mix(long hi, long lo) {
    long h = hi * 0x9E3779B97F4A7C15L ^ lo;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return (int) h;
  }

  /** Whether {@code id} is 32 lowercase hex chars (then it packs into 16 bytes). */
  static boolean isPackedHex(String id) {
    if (id.length() != 32) {
      return false;
    }
    for (int i = 0; i < 32; i++) {
      char c = id.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /**
   * The 16 hex chars of {@code id} from {@code from} as a long (caller checked {@link
   * #isPackedHex}).
   */
  static long hexLong(String id, int from) {
    long v = 0;
    for (int i = from; i < from + 16; i++) {
      v = (v << 4) | Character.digit(id.charAt(i), 16);
    }
    return v;
  }

  /** The 32 lowercase hex chars of the packed id (hi, lo). */
  static String hex(long hi, long lo) {
    return HexFormat.of().toHexDigits(hi) + HexFormat.of().toHexDigits(lo);
  }
}
