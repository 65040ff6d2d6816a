package io.specwatch.ingest.ship;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import java.util.List;

/**
 * What became of one line: a decode event, a per-request record, a new run context, a dead letter,
 * a counted skip, a recognised line with nothing to publish, several of these (a run context to
 * publish before the line's event, or one event per report of a phase-profile line), or nothing
 * (not a metric line).
 */
public sealed interface IngestOutcome
    permits IngestOutcome.Event,
        IngestOutcome.PreEncoded,
        IngestOutcome.Request,
        IngestOutcome.Context,
        IngestOutcome.Dead,
        IngestOutcome.Skipped,
        IngestOutcome.Recognised,
        IngestOutcome.Many,
        IngestOutcome.Unrecognised {

  record Event(DecodeEvent event) implements IngestOutcome {}

  /**
   * A decode event written ahead as bytes ({@code ship}'s SGLang path, see {@link
   * SglangEventParts}) with the values the source's state gave it: published like an {@link Event}.
   */
  record PreEncoded(
      SglangEventParts event,
      String deploymentId,
      long eventTimeMs,
      long ingestTimeMs,
      Double intervalMs,
      Double cycleMs,
      String runContextId)
      implements IngestOutcome {}

  /** A finished request's acceptance (per-request formats), for the request-acceptance topic. */
  record Request(RequestAcceptance request) implements IngestOutcome {}

  /** A run context whose content changed, for the run-context topic. */
  record Context(RunContext runContext) implements IngestOutcome {}

  record Dead(DeadLetter deadLetter) implements IngestOutcome {}

  /** A valid line with nothing to publish by decision (counted, see ingest/README.md). */
  record Skipped(String format, String reason) implements IngestOutcome {}

  /** A recognised line with nothing new to publish (a run-context line that changed nothing). */
  record Recognised(String format) implements IngestOutcome {}

  /** Several outcomes of one line, in publication order. */
  record Many(List<IngestOutcome> parts) implements IngestOutcome {
    public Many {
      parts = List.copyOf(parts);
    }
  }

  record Unrecognised() implements IngestOutcome {}

  /** The outcome's parts in order ({@link Many} flattened, a single outcome as itself). */
  default List<IngestOutcome> parts() {
    return this instanceof Many m ? m.parts() : List.of(this);
  }

  /**
   * How many parts {@link #part} has: per-line counters walk them by index, without the list {@link
   * #parts} builds for a single outcome.
   */
  default int partCount() {
    return this instanceof Many m ? m.parts().size() : 1;
  }

  /** Part {@code i} of {@link #parts}. */
  default IngestOutcome part(int i) {
    return this instanceof Many m ? m.parts().get(i) : this;
  }
}
