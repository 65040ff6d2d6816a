package io.specwatch.ingest.ship;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** One line of a file: its number, offset and bytes, and their text (decoded on first use). */
public final class SourceLine {

  /**
   * Default cap on the bytes kept of one line (256 KiB); longer lines are dead-lettered with their
   * head. A dead letter must fit in one Kafka record (producer {@code max.request.size}, 1 MiB by
   * default).
   */
  public static final int DEFAULT_MAX_LINE_BYTES = 256 * 1024;

  private final long lineNumber;
  private final long offset;
  private final byte[] bytes;
  private final long length;
  // decoded on first use (lines read by one thread are decoded by the threads that parse them);
  // a String is immutable and safely published, so a racy first use decodes at most twice
  private String text;

  public SourceLine(long lineNumber, long offset, byte[] bytes, String text, long length) {
    if (length < bytes.length) {
      throw new IllegalArgumentException(
          "length " + length + " is shorter than the bytes kept (" + bytes.length + ")");
    }
    this.lineNumber = lineNumber;
    this.offset = offset;
    this.bytes = bytes;
    this.text = text;
    this.length = length;
  }

  /** A line kept whole. */
  public SourceLine(long lineNumber, long offset, byte[] bytes, String text) {
    this(lineNumber, offset, bytes, text, bytes.length);
  }

  /** True when the line was longer than the max line length and only its head was kept. */
  public boolean truncated() {
    return length > bytes.length;
  }

  /**
   * The length n such that {@code bytes[0, n)} is exactly the UTF-8 encoding of {@link #text()}, or
   * -1 when that cannot be told cheaply (hot path: the event id hashes these bytes instead of
   * encoding the text again). Holds for lines of ASCII bytes, with or without the trailing CR that
   * the text drops: the text then has as many chars as the bytes (without CR) and no U+FFFD.
   * Conversely, every valid multi-byte sequence decodes to fewer chars than it has bytes and each
   * malformed one to U+FFFD, so a text of that length without U+FFFD came from ASCII bytes (for a
   * text of Latin-1 chars the U+FFFD check costs nothing).
   */
  public int asciiTextLength() {
    String text = text();
    int n = text.length();
    if (n != bytes.length && (n != bytes.length - 1 || bytes[n] != '\r')) {
      return -1;
    }
    return text.indexOf('\uFFFD') < 0 ? n : -1;
  }

  /**
   * A line from its kept bytes: decoded as UTF-8 (malformed input replaced), a trailing CR dropped
   * from the text.
   */
  public static SourceLine of(long lineNumber, long offset, byte[] kept, long length) {
    return new SourceLine(lineNumber, offset, kept, null, length);
  }

  /** 1-based line number in its file. */
  public long lineNumber() {
    return lineNumber;
  }

  /** Byte offset of the line start. */
  public long offset() {
    return offset;
  }

  /** Raw bytes without the terminator; only the first max-line-bytes of an over-long line. */
  public byte[] bytes() {
    return bytes;
  }

  /** The bytes decoded as UTF-8 (malformed input replaced), without a trailing CR. */
  public String text() {
    String t = text;
    if (t == null) {
      t = new String(bytes, StandardCharsets.UTF_8);
      if (t.endsWith("\r")) {
        t = t.substring(0, t.length() - 1);
      }
      text = t;
    }
    return t;
  }

  /**
   * The line's full length in bytes in the file, without the terminator: more than {@code
   * bytes.length} when the line was cut at the max line length.
   */
  public long length() {
    return length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SourceLine l
        && lineNumber == l.lineNumber
        && offset == l.offset
        && length == l.length
        && Arrays.equals(bytes, l.bytes)
        && text().equals(l.text());
  }

  @Override
  public int hashCode() {
    return Objects.hash(lineNumber, offset, length, Arrays.hashCode(bytes));
  }

  @Override
  public String toString() {
    return "SourceLine[lineNumber="
        + lineNumber
        + ", offset="
        + offset
        + ", length="
        + length
        + ", text="
        + text()
        + "]";
  }
}
