package io.specwatch.ingest.ship;

/**
 * One line of a file.
 *
 * @param lineNumber 1-based
 * @param offset byte offset of the line start
 * @param bytes raw bytes without the terminator
 * @param text bytes decoded as UTF-8 (malformed input replaced), without a trailing CR
 */
public record SourceLine(long lineNumber, long offset, byte[] bytes, String text) {}
