package io.specwatch.ingest.ship;

/**
 * Counts of one shipment.
 *
 * @param linesRead every line of the file, blank ones included
 * @param recognised metric lines turned into decode events, per-request records or run contexts
 *     (run-context lines that changed nothing included)
 * @param deadLettered lines that looked like metrics but failed
 * @param unrecognised all other lines
 * @param skipped valid lines skipped by decision (SGLang meta_info with spec_verify_ct = 0)
 * @param runContexts RunContext records published (at start, on a file change, or before a line)
 */
public record ShipResult(
    long linesRead,
    long recognised,
    long deadLettered,
    long unrecognised,
    long skipped,
    long runContexts) {

  /** Counts without skips and run contexts. */
  public ShipResult(long linesRead, long recognised, long deadLettered, long unrecognised) {
    this(linesRead, recognised, deadLettered, unrecognised, 0, 0);
  }

  /**
   * A running count, one line at a time without a new ShipResult per line (the shipper's sending
   * thread counts every line of a file).
   */
  static final class Tally {
    private long linesRead;
    private long recognised;
    private long deadLettered;
    private long unrecognised;
    private long skipped;
    private long runContexts;

    Tally(ShipResult from) {
      linesRead = from.linesRead;
      recognised = from.recognised;
      deadLettered = from.deadLettered;
      unrecognised = from.unrecognised;
      skipped = from.skipped;
      runContexts = from.runContexts;
    }

    void add(IngestOutcome outcome) {
      linesRead++;
      if (!(outcome instanceof IngestOutcome.Many many)) {
        // one part (nearly every line): no parts list
        if (outcome instanceof IngestOutcome.Context) {
          runContexts++;
          recognised++;
        } else if (outcome instanceof IngestOutcome.Dead) {
          deadLettered++;
        } else if (outcome instanceof IngestOutcome.Skipped) {
          skipped++;
        } else if (outcome instanceof IngestOutcome.Unrecognised) {
          unrecognised++;
        } else {
          recognised++;
        }
        return;
      }
      boolean dead = false;
      boolean skip = false;
      boolean unrecognisedLine = false;
      for (IngestOutcome part : many.parts()) {
        if (part instanceof IngestOutcome.Context) {
          runContexts++;
        } else if (part instanceof IngestOutcome.Dead) {
          dead = true;
        } else if (part instanceof IngestOutcome.Skipped) {
          skip = true;
        } else if (part instanceof IngestOutcome.Unrecognised) {
          unrecognisedLine = true;
        }
      }
      recognised += dead || skip || unrecognisedLine ? 0 : 1;
      deadLettered += dead ? 1 : 0;
      unrecognised += unrecognisedLine ? 1 : 0;
      skipped += skip ? 1 : 0;
    }

    ShipResult result() {
      return new ShipResult(
          linesRead, recognised, deadLettered, unrecognised, skipped, runContexts);
    }
  }

  /** The former per-line sum, kept as the reference of {@link Tally} (ShipResultTest). */
  ShipResult plusByParts(IngestOutcome outcome) {
    long contexts = 0;
    boolean dead = false;
    boolean skip = false;
    boolean unrecognisedLine = false;
    for (IngestOutcome part : outcome.parts()) {
      if (part instanceof IngestOutcome.Context) {
        contexts++;
      } else if (part instanceof IngestOutcome.Dead) {
        dead = true;
      } else if (part instanceof IngestOutcome.Skipped) {
        skip = true;
      } else if (part instanceof IngestOutcome.Unrecognised) {
        unrecognisedLine = true;
      }
    }
    return new ShipResult(
        linesRead + 1,
        recognised + (dead || skip || unrecognisedLine ? 0 : 1),
        deadLettered + (dead ? 1 : 0),
        unrecognised + (unrecognisedLine ? 1 : 0),
        skipped + (skip ? 1 : 0),
        runContexts + contexts);
  }

  /** Adds run contexts published outside any line (at start, after a file change). */
  ShipResult plusContexts(long n) {
    return new ShipResult(
        linesRead, recognised, deadLettered, unrecognised, skipped, runContexts + n);
  }

  static ShipResult empty() {
    return new ShipResult(0, 0, 0, 0, 0, 0);
  }
}
