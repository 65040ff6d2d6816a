package io.specwatch.ingest.ship;

/**
 * Counts of one shipment.
 *
 * @param linesRead every line of the file, blank ones included
 * @param recognised metric lines turned into decode events or per-request records
 * @param deadLettered lines that looked like metrics but failed
 * @param unrecognised all other lines
 */
public record ShipResult(long linesRead, long recognised, long deadLettered, long unrecognised) {

  ShipResult plus(IngestOutcome outcome) {
    if (outcome instanceof IngestOutcome.Event || outcome instanceof IngestOutcome.Request) {
      return new ShipResult(linesRead + 1, recognised + 1, deadLettered, unrecognised);
    }
    if (outcome instanceof IngestOutcome.Dead) {
      return new ShipResult(linesRead + 1, recognised, deadLettered + 1, unrecognised);
    }
    return new ShipResult(linesRead + 1, recognised, deadLettered, unrecognised + 1);
  }

  static ShipResult empty() {
    return new ShipResult(0, 0, 0, 0);
  }
}
