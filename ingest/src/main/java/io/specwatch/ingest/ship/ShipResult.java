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
   * A running count, one line at a time without a new ShipResult (or a parts list) per line: the
   * shipper's sending thread counts every line of a file. A line is recognised unless one of its
   * parts is a dead letter, a skip or unrecognised; each RunContext part counts as a run context.
   */
  static final class Tally {
    private static final int DEAD = 1;
    private static final int SKIPPED = 2;
    private static final int UNRECOGNISED = 4;

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
      int flags = 0;
      for (int i = 0, n = outcome.partCount(); i < n; i++) {
        flags |= part(outcome.part(i));
      }
      linesRead++;
      recognised += flags == 0 ? 1 : 0;
      deadLettered += (flags & DEAD) != 0 ? 1 : 0;
      skipped += (flags & SKIPPED) != 0 ? 1 : 0;
      unrecognised += (flags & UNRECOGNISED) != 0 ? 1 : 0;
    }

    /** Counts a run context; the flags of what makes a line not recognised. */
    private int part(IngestOutcome part) {
      if (part instanceof IngestOutcome.Context) {
        runContexts++;
        return 0;
      }
      if (part instanceof IngestOutcome.Dead) {
        return DEAD;
      }
      if (part instanceof IngestOutcome.Skipped) {
        return SKIPPED;
      }
      return part instanceof IngestOutcome.Unrecognised ? UNRECOGNISED : 0;
    }

    ShipResult result() {
      return new ShipResult(
          linesRead, recognised, deadLettered, unrecognised, skipped, runContexts);
    }
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
