package io.specwatch.ingest.normalise;

import java.time.Instant;

/**
 * Position of one line in its source.
 *
 * @param lineNumber 1-based line number
 * @param offset byte offset of the line start
 * @param text line text without terminator
 * @param ingestTime when the shipper read it
 */
public record LineOrigin(long lineNumber, long offset, String text, Instant ingestTime) {}
