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
