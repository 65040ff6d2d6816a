package io.specwatch.ingest.ship;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;

/**
 * What became of one line: a decode event, a per-request record, a dead letter, or nothing (not a
 * metric line).
 */
public sealed interface IngestOutcome
    permits IngestOutcome.Event,
        IngestOutcome.Request,
        IngestOutcome.Dead,
        IngestOutcome.Unrecognised {

  record Event(DecodeEvent event) implements IngestOutcome {}

  /** A finished request's acceptance (per-request formats), for the request-acceptance topic. */
  record Request(RequestAcceptance request) implements IngestOutcome {}

  record Dead(DeadLetter deadLetter) implements IngestOutcome {}

  record Unrecognised() implements IngestOutcome {}
}
