package io.specwatch.ingest.ship;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;

/** What became of one line: an event, a dead letter, or nothing (not a metric line). */
public sealed interface IngestOutcome
    permits IngestOutcome.Event, IngestOutcome.Dead, IngestOutcome.Unrecognised {

  record Event(DecodeEvent event) implements IngestOutcome {}

  record Dead(DeadLetter deadLetter) implements IngestOutcome {}

  record Unrecognised() implements IngestOutcome {}
}
