package io.specwatch.sink;

import java.util.Map;

/**
 * What a sink run did: records polled, rows inserted (in total and per table), acknowledged
 * inserts, dead letters, offset commits, and insert attempts that failed retriably.
 */
public record SinkStats(
    long recordsPolled,
    long rowsInserted,
    long batches,
    long deadLetters,
    long commits,
    long retries,
    Map<String, Long> rowsByTable) {

  public SinkStats {
    rowsByTable = rowsByTable == null ? Map.of() : Map.copyOf(rowsByTable);
  }
}
