package io.specwatch.sink.rows;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte array with unsynchronised writes and little-endian helpers (RowBinary is
 * little-endian). Rows are appended and later sent, whole or as a slice, as one insert body.
 */
public final class ByteSink extends OutputStream {

  private byte[] buf;
  private int size;

  public ByteSink(int initialCapacity) {
    this.buf = new byte[Math.max(16, initialCapacity)];
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }

  void int32(int v) {
    ensure(4);
    buf[size++] = (byte) v;
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) (v >>> 16);
    buf[size++] = (byte) (v >>> 24);
  }

  void int64(long v) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      buf[size++] = (byte) (v >>> (8 * i));
    }
  }

  /** Unsigned LEB128, the length prefix of RowBinary strings and arrays. */
  void varUInt(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  /**
   * Writes {@code s} as a RowBinary string (LEB128 length, bytes) if every char is ASCII, and
   * returns true; otherwise writes nothing and returns false (the caller encodes UTF-8).
   */
  boolean ascii(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    varUInt(n);
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[size++] = (byte) s.charAt(i);
    }
    return true;
  }

  public int size() {
    return size;
  }

  /**
   * The current backing array, valid up to {@link #size()} (a later write may move the content to a
   * new array; bytes already written are never changed in the old one).
   */
  public byte[] array() {
    return buf;
  }

  /** Drops everything after the first {@code newSize} bytes (undoes a half-written row). */
  public void truncate(int newSize) {
    if (newSize < 0 || newSize > size) {
      throw new IllegalArgumentException("cannot truncate " + size + " bytes to " + newSize);
    }
    size = newSize;
  }

  /** Forgets the content, keeping the allocated array unless it grew past {@code keepBytes}. */
  public void reset(int keepBytes) {
    size = 0;
    if (buf.length > keepBytes) {
      buf = new byte[Math.max(16, keepBytes)];
    }
  }

  /** A stream over {@code [from, to)} of the current content, without copying. */
  public InputStream slice(int from, int to) {
    return new java.io.ByteArrayInputStream(buf, from, to - from);
  }

  /** A copy of {@code [from, to)}. */
  public byte[] copy(int from, int to) {
    return Arrays.copyOfRange(buf, from, to);
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      long wanted = Math.max((long) buf.length * 2, (long) size + more);
      if (wanted > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("row buffer over 2 GiB");
      }
      buf = Arrays.copyOf(buf, (int) wanted);
    }
  }
}
