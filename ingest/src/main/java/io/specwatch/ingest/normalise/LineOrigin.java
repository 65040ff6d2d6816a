package io.specwatch.ingest.normalise;

import java.time.Instant;

/**
 * Position of one line in its source.
 *
 * @param lineNumber 1-based line number
 * @param offset byte offset of the line start
 * @param text line text without terminator
 * @param ingestTime when the shipper read it
 * @param eventId the line's event id when computed ahead ({@link EventIds#of} of the source, offset
 *     and text: {@code ship} hashes on its reading thread), else null and computed when needed
 */
public record LineOrigin(
    long lineNumber, long offset, String text, Instant ingestTime, String eventId) {

  /** An origin whose event id is computed when needed. */
  public LineOrigin(long lineNumber, long offset, String text, Instant ingestTime) {
    this(lineNumber, offset, text, ingestTime, null);
  }

  /** The event id of this line in source (the one computed ahead, if any). */
  public String eventId(SourceContext source) {
    return eventId != null
        ? eventId
        : EventIds.of(source.host(), source.source(), source.sourceIdentity(), offset, text);
  }
}
