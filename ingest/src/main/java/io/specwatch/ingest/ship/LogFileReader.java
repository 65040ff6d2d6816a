package io.specwatch.ingest.ship;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Reads a whole file line by line, keeping byte offsets (growing files: the tail package). Memory
 * is bounded by the max line length: of a longer line only the first max bytes are kept (the line
 * is marked {@link SourceLine#truncated()}, and the shipper dead-letters it).
 */
public final class LogFileReader {

  private static final int CHUNK = 1 << 16;

  private LogFileReader() {}

  /** {@link #forEachLine(Path, int, Consumer)} with {@link SourceLine#DEFAULT_MAX_LINE_BYTES}. */
  public static long forEachLine(Path file, Consumer<SourceLine> sink) throws IOException {
    return forEachLine(file, SourceLine.DEFAULT_MAX_LINE_BYTES, sink);
  }

  /**
   * Calls sink for every line in order; a last line without a newline is included.
   *
   * @param maxLineBytes bytes kept of one line (at least 1)
   */
  public static long forEachLine(Path file, int maxLineBytes, Consumer<SourceLine> sink)
      throws IOException {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException(
          "setting 'max-line-bytes' must be >= 1, was " + maxLineBytes);
    }
    long lines = 0;
    long lineStart = 0; // file offset of the current line
    long pos = 0; // file offset of chunk[0]
    byte[] chunk = new byte[CHUNK];
    byte[] partial = new byte[256]; // head of a line that spans chunks, at most maxLineBytes
    int partialLen = 0;
    long lineLen = 0; // bytes of the current line seen so far (may exceed maxLineBytes)
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(chunk)) > 0) {
        int from = 0;
        for (int i = indexOfNewline(chunk, 0, n); i >= 0; i = indexOfNewline(chunk, from, n)) {
          int segment = i - from;
          byte[] kept;
          if (lineLen == 0 && segment <= maxLineBytes) {
            kept = Arrays.copyOfRange(chunk, from, i); // the common case: a line inside one chunk
          } else {
            partial = append(partial, partialLen, chunk, from, segment, maxLineBytes);
            partialLen = (int) Math.min(maxLineBytes, partialLen + (long) segment);
            kept = Arrays.copyOf(partial, partialLen);
          }
          sink.accept(SourceLine.of(++lines, lineStart, kept, lineLen + segment));
          lineStart = pos + i + 1;
          lineLen = 0;
          partialLen = 0;
          from = i + 1;
        }
        int rest = n - from;
        if (rest > 0) {
          partial = append(partial, partialLen, chunk, from, rest, maxLineBytes);
          partialLen = (int) Math.min(maxLineBytes, partialLen + (long) rest);
          lineLen += rest;
        }
        pos += n;
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (lineLen > 0) {
      sink.accept(SourceLine.of(++lines, lineStart, Arrays.copyOf(partial, partialLen), lineLen));
    }
    return lines;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long NEWLINES = ONES * '\n';

  /**
   * Index of the first {@code '\n'} in {@code b[from, to)}, or -1: eight bytes at a time (the
   * per-byte loop was the reading thread's whole time, and that thread is one of the shipper's
   * sequential stages).
   */
  static int indexOfNewline(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONGS.get(b, i) ^ NEWLINES; // a zero byte where b held '\n'
      long found = (x - ONES) & ~x & HIGHS; // the lowest set high bit marks the first zero byte
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** Appends up to the cap; returns the (maybe grown) buffer. */
  private static byte[] append(byte[] buf, int len, byte[] src, int from, int n, int cap) {
    int take = (int) Math.min(n, (long) cap - len);
    if (take <= 0) {
      return buf;
    }
    if (len + take > buf.length) {
      buf = Arrays.copyOf(buf, (int) Math.min(cap, Math.max(len + take, 2L * buf.length)));
    }
    System.arraycopy(src, from, buf, len, take);
    return buf;
  }
}
