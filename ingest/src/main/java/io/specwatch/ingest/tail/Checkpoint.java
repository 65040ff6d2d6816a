package io.specwatch.ingest.tail;

import java.util.Objects;

/**
 * Durable position in one source: the identity of the file being read and the byte offset of the
 * next unread line, up to which Kafka acknowledged every record.
 *
 * @param source the tailed path as recorded in events
 * @param identity file being read (it may have been renamed since: it is found again by identity)
 * @param offset byte offset of the next unread line
 * @param lineNumber lines of the file before offset (the next line is lineNumber + 1)
 */
public record Checkpoint(String source, FileIdentity identity, long offset, long lineNumber) {

  public Checkpoint {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(identity, "identity");
    if (offset < 0 || lineNumber < 0) {
      throw new IllegalArgumentException("offset and lineNumber must be >= 0");
    }
  }
}
