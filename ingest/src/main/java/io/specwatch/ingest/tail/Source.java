package io.specwatch.ingest.tail;

import io.specwatch.ingest.ship.LineIngestor;

/** The open file generation of one source: its ingestor (event ids) and ack tracker. */
final class Source {
  final TailedFile file;
  FileIdentity genIdentity;
  LineIngestor ingestor;
  AckTracker tracker;
  Checkpoint lastSaved;

  Source(TailedFile file) {
    this.file = file;
  }
}
