package io.specwatch.ingest.ship;

/**
 * One line of a file.
 *
 * @param lineNumber 1-based
 * @param offset byte offset of the line start
 * @param bytes raw bytes without the terminator; only the first max-line-bytes of an over-long line
 * @param text bytes decoded as UTF-8 (malformed input replaced), without a trailing CR
 * @param length the line's full length in bytes in the file, without the terminator: more than
 *     {@code bytes.length} when the line was cut at the max line length
 */
public record SourceLine(long lineNumber, long offset, byte[] bytes, String text, long length) {

  /**
   * Default cap on the bytes kept of one line (256 KiB); longer lines are dead-lettered with their
   * head. A dead letter must fit in one Kafka record (producer {@code max.request.size}, 1 MiB by
   * default).
   */
  public static final int DEFAULT_MAX_LINE_BYTES = 256 * 1024;

  public SourceLine {
    if (length < bytes.length) {
      throw new IllegalArgumentException(
          "length " + length + " is shorter than the bytes kept (" + bytes.length + ")");
    }
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
    String text = new String(kept, java.nio.charset.StandardCharsets.UTF_8);
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    return new SourceLine(lineNumber, offset, kept, text, length);
  }
}
