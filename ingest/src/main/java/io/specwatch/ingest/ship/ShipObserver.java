package io.specwatch.ingest.ship;

/**
 * Watches a shipper at work (metrics, progress). Called on the shipping thread for lines and from
 * producer callbacks for Kafka errors; implementations must be cheap and thread-safe.
 */
public interface ShipObserver {

  /** No-op observer. */
  ShipObserver NONE = new ShipObserver() {};

  /** A line was read and became {@code outcome}; {@code endOffset} is the byte after it. */
  default void line(SourceLine line, long endOffset, IngestOutcome outcome) {}

  /** Run contexts published outside any line (at start, after a run-context file change). */
  default void runContexts(int n) {}

  /** Kafka rejected or could not yet take a record. */
  default void kafkaError(Exception e) {}

  /** Combines observers. */
  static ShipObserver both(ShipObserver a, ShipObserver b) {
    return new ShipObserver() {
      @Override
      public void line(SourceLine line, long endOffset, IngestOutcome outcome) {
        a.line(line, endOffset, outcome);
        b.line(line, endOffset, outcome);
      }

      @Override
      public void runContexts(int n) {
        a.runContexts(n);
        b.runContexts(n);
      }

      @Override
      public void kafkaError(Exception e) {
        a.kafkaError(e);
        b.kafkaError(e);
      }
    };
  }
}
