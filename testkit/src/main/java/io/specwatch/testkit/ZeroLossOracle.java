package io.specwatch.testkit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Compares what went into the pipeline with what is in ClickHouse: the zero-loss oracle of the
 * fault suite. The caller states the input independently of the pipeline (the event id of every
 * metric line written, computed from the bytes written; the expected event count of every closed
 * (deployment, minute) window); {@link #check} reads ClickHouse and {@link #compare} diffs.
 *
 * <p>What is read, and what counts as what:
 *
 * <ul>
 *   <li><b>lost / extra ids</b>: the distinct {@code event_id}s of {@code decode_events} read
 *       <em>without</em> {@code FINAL} (every row ClickHouse holds, merged or not), against the
 *       expected ids.
 *   <li><b>duplicated ids</b>: ids with more than one row <em>after</em> {@code FINAL}, i.e. what a
 *       reader of the table sees once the ReplacingMergeTree dedup on its sort key {@code
 *       (deployment_id, event_time, event_id)} has been applied. Raw rows beyond one per id
 *       (at-least-once re-sends the dedup collapses) are reported as {@code rawRows - distinct},
 *       not as duplicates.
 *   <li><b>windows</b>: the total rows ({@code prompt_category = '*' AND batch_bucket = '*'}) of
 *       {@code window_results} read with {@code FINAL}, keyed by (deployment, window start): an
 *       expected key without a row is missing, a key with more than one row is duplicated (the
 *       natural key includes {@code spec_enabled}, so a second row means the same minute was
 *       emitted under another key), a row whose {@code events} differs from the expected count is a
 *       wrong count (a lost or double-counted event inside the window), a row for a key not
 *       expected (and before {@code windowsBefore}) is extra.
 * </ul>
 */
public final class ZeroLossOracle {

  private ZeroLossOracle() {}

  /** (deployment, window start as {@code yyyy-MM-dd HH:mm:ss} UTC). */
  public record WindowKey(String deployment, String windowStart) implements Comparable<WindowKey> {
    @Override
    public int compareTo(WindowKey o) {
      int c = deployment.compareTo(o.deployment);
      return c != 0 ? c : windowStart.compareTo(o.windowStart);
    }

    @Override
    public String toString() {
      return deployment + "@" + windowStart;
    }
  }

  /** One window as read: how many rows its key has after FINAL and their event counts. */
  public record WindowRow(long rows, long minEvents, long maxEvents) {}

  /**
   * What went in.
   *
   * @param deployments the deployments the check is restricted to (other rows are ignored)
   * @param eventIds every expected event id
   * @param windows expected events per closed window
   * @param windowsBefore windows starting at or after this time (open windows, the closing lines'
   *     own window) are not compared; {@code yyyy-MM-dd HH:mm:ss}
   */
  public record Expected(
      Set<String> deployments,
      Set<String> eventIds,
      Map<WindowKey, Long> windows,
      String windowsBefore) {
    public Expected {
      deployments = Set.copyOf(deployments);
      eventIds = Set.copyOf(eventIds);
      windows = Map.copyOf(windows);
    }
  }

  /** What is in ClickHouse for the expected deployments. */
  public record Observed(
      Map<String, Long> rawRowsById,
      Set<String> duplicatedAfterFinal,
      Map<WindowKey, WindowRow> windows) {
    public long rawRows() {
      return rawRowsById.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** The verdict; {@link #clean()} when nothing is lost, duplicated, extra or wrong. */
  public record Report(
      long eventsIn,
      long rowsOut,
      long distinctIdsOut,
      Set<String> lost,
      Set<String> duplicated,
      Set<String> extra,
      int windowsChecked,
      Set<WindowKey> missingWindows,
      Set<WindowKey> duplicatedWindows,
      Map<WindowKey, String> wrongCountWindows,
      long overCountedEvents,
      long underCountedEvents,
      Set<WindowKey> extraWindows) {

    public boolean clean() {
      return lost.isEmpty()
          && duplicated.isEmpty()
          && extra.isEmpty()
          && missingWindows.isEmpty()
          && duplicatedWindows.isEmpty()
          && wrongCountWindows.isEmpty()
          && extraWindows.isEmpty();
    }

    /** One line per scenario: the figures every fault run prints. */
    public String summary(String scenario) {
      return String.format(
          "[oracle] %-28s events in %d, rows out %d (distinct ids %d, raw re-sends collapsed %d),"
              + " lost %d, duplicated %d, extra %d; windows checked %d: missing %d, duplicated %d,"
              + " wrong count %d (+%d/-%d events), extra %d -> %s",
          scenario,
          eventsIn,
          rowsOut,
          distinctIdsOut,
          rowsOut - distinctIdsOut,
          lost.size(),
          duplicated.size(),
          extra.size(),
          windowsChecked,
          missingWindows.size(),
          duplicatedWindows.size(),
          wrongCountWindows.size(),
          overCountedEvents,
          underCountedEvents,
          extraWindows.size(),
          clean() ? "CLEAN" : "NOT CLEAN");
    }

    /** The summary plus up to 10 examples of each finding, for an assertion message. */
    public String details(String scenario) {
      StringBuilder b = new StringBuilder(summary(scenario));
      examples(b, "lost", lost);
      examples(b, "duplicated", duplicated);
      examples(b, "extra", extra);
      examples(b, "missing windows", missingWindows);
      examples(b, "duplicated windows", duplicatedWindows);
      examples(
          b,
          "wrong-count windows",
          wrongCountWindows.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList());
      examples(b, "extra windows", extraWindows);
      return b.toString();
    }

    private static void examples(StringBuilder b, String what, Collection<?> items) {
      if (!items.isEmpty()) {
        b.append("\n  ")
            .append(what)
            .append(": ")
            .append(items.stream().limit(10).map(String::valueOf).collect(Collectors.joining(", ")))
            .append(items.size() > 10 ? ", ..." : "");
      }
    }
  }

  /** Reads ClickHouse (HTTP, database {@code database}) and compares with {@code expected}. */
  public static Report check(String clickhouseHttpUrl, String database, Expected expected) {
    return compare(expected, observe(clickhouseHttpUrl, database, expected));
  }

  /** What ClickHouse holds for the expected deployments (the three queries of the class doc). */
  public static Observed observe(String clickhouseHttpUrl, String database, Expected expected) {
    String in =
        expected.deployments().stream()
            .sorted()
            .map(d -> "'" + d.replace("\\", "\\\\").replace("'", "\\'") + "'")
            .collect(Collectors.joining(","));
    Map<String, Long> raw = new HashMap<>();
    for (String[] row :
        rows(
            clickhouseHttpUrl,
            "SELECT event_id, count() FROM "
                + database
                + ".decode_events WHERE deployment_id IN ("
                + in
                + ") GROUP BY event_id FORMAT TabSeparated")) {
      raw.put(row[0], Long.parseLong(row[1]));
    }
    Set<String> dup = new TreeSet<>();
    for (String[] row :
        rows(
            clickhouseHttpUrl,
            "SELECT event_id, count() AS n FROM "
                + database
                + ".decode_events FINAL WHERE deployment_id IN ("
                + in
                + ") GROUP BY event_id HAVING n > 1 FORMAT TabSeparated")) {
      dup.add(row[0]);
    }
    Map<WindowKey, WindowRow> windows = new TreeMap<>();
    for (String[] row :
        rows(
            clickhouseHttpUrl,
            "SELECT deployment_id, toString(window_start), count(), min(events), max(events) FROM "
                + database
                + ".window_results FINAL WHERE deployment_id IN ("
                + in
                + ") AND prompt_category = '*' AND batch_bucket = '*'"
                + " GROUP BY deployment_id, window_start FORMAT TabSeparated")) {
      windows.put(
          new WindowKey(row[0], row[1]),
          new WindowRow(Long.parseLong(row[2]), Long.parseLong(row[3]), Long.parseLong(row[4])));
    }
    return new Observed(raw, dup, windows);
  }

  /** The diff; pure, so it is unit-tested without a server. */
  public static Report compare(Expected expected, Observed observed) {
    Set<String> lost = new TreeSet<>(expected.eventIds());
    lost.removeAll(observed.rawRowsById().keySet());
    Set<String> extra = new TreeSet<>(observed.rawRowsById().keySet());
    extra.removeAll(expected.eventIds());
    Set<WindowKey> missing = new TreeSet<>();
    Set<WindowKey> duplicatedWindows = new TreeSet<>();
    Map<WindowKey, String> wrong = new TreeMap<>();
    long over = 0;
    long under = 0;
    for (Map.Entry<WindowKey, Long> e : expected.windows().entrySet()) {
      WindowRow row = observed.windows().get(e.getKey());
      if (row == null) {
        missing.add(e.getKey());
        continue;
      }
      if (row.rows() > 1) {
        duplicatedWindows.add(e.getKey());
      }
      over += Math.max(0, row.maxEvents() - e.getValue());
      under += Math.max(0, e.getValue() - row.minEvents());
      if (row.minEvents() != e.getValue() || row.maxEvents() != e.getValue()) {
        wrong.put(
            e.getKey(),
            "expected "
                + e.getValue()
                + " events, got "
                + (row.minEvents() == row.maxEvents()
                    ? row.minEvents()
                    : row.minEvents() + ".." + row.maxEvents()));
      }
    }
    Set<WindowKey> extraWindows = new TreeSet<>();
    for (Map.Entry<WindowKey, WindowRow> e : observed.windows().entrySet()) {
      WindowKey k = e.getKey();
      if (!expected.windows().containsKey(k)
          && k.windowStart().compareTo(expected.windowsBefore()) < 0) {
        extraWindows.add(k);
        if (e.getValue().rows() > 1) {
          duplicatedWindows.add(k);
        }
      }
    }
    return new Report(
        expected.eventIds().size(),
        observed.rawRows(),
        observed.rawRowsById().size(),
        lost,
        new TreeSet<>(observed.duplicatedAfterFinal()),
        extra,
        expected.windows().size(),
        missing,
        duplicatedWindows,
        wrong,
        over,
        under,
        extraWindows);
  }

  /**
   * A read, tried up to 3 times: a server that closed an idle keep-alive connection answers the
   * next request with no bytes (seen with ClickHouse 18.16 after a restart).
   */
  public static String queryWithRetry(String url, String sql) {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return ClickHouseHttp.query(url, sql);
      } catch (IllegalStateException e) {
        if (!String.valueOf(e.getMessage()).contains("unreachable")) {
          throw e;
        }
        last = e;
        try {
          Thread.sleep(500);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
    throw last;
  }

  private static List<String[]> rows(String url, String sql) {
    List<String[]> out = new ArrayList<>();
    for (String line : queryWithRetry(url, sql).split("\n")) {
      if (!line.isEmpty()) {
        out.add(line.split("\t", -1));
      }
    }
    return out;
  }
}
