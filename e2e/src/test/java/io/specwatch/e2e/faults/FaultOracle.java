package io.specwatch.e2e.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.testkit.ZeroLossOracle;
import io.specwatch.testkit.ZeroLossOracle.Expected;
import io.specwatch.testkit.ZeroLossOracle.Report;
import io.specwatch.testkit.ZeroLossOracle.WindowKey;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The zero-loss oracle ({@link ZeroLossOracle}) applied to a fault scenario on a {@link
 * FaultPipeline}: {@link #settle} closes the scenario's windows and returns the oracle's verdict
 * (printed and appended to target/faults-summary.txt), {@link #negativeControl} proves the same
 * oracle fails when the pipeline loses, duplicates or adds.
 */
final class FaultOracle {

  private final FaultPipeline pipeline;

  FaultOracle(FaultPipeline pipeline) {
    this.pipeline = pipeline;
  }

  /**
   * Waits until every metric line of {@code log} is in decode_events, writes the closing line (two
   * hours after the last event: past end + grace of every data window, which closes them), waits
   * until every closed window is in ClickHouse with its count (or the timeout), lets 3 s pass for
   * late duplicates, and returns the oracle's final report, printed and appended to
   * target/faults-summary.txt.
   */
  Outcome settle(String scenario, EngineLog log, Duration timeout) throws Exception {
    return settle(scenario, log, timeout, false);
  }

  /**
   * As {@link #settle(String, EngineLog, Duration)}; with {@code windowsAtLeastOnce} it waits for
   * no window under-counted instead of every window exact (a scenario where re-sent events may be
   * counted twice in their window).
   */
  Outcome settle(String scenario, EngineLog log, Duration timeout, boolean windowsAtLeastOnce)
      throws Exception {
    String clickhouseUrl = pipeline.clickhouseUrl;
    String database = pipeline.database;
    String deployment = deploymentOf(log);
    Set<String> dataIds = log.ids();
    Await.until(
        scenario + ": every shipped event in decode_events",
        timeout,
        () -> {
          pipeline.assertAppsAlive();
          return ZeroLossOracle.check(
                  clickhouseUrl, database, new Expected(Set.of(deployment), dataIds, Map.of(), "0"))
              .lost()
              .isEmpty();
        });
    LocalDateTime closeAt = log.time().plusHours(2);
    log.metricAt(closeAt);
    String windowsBefore = EngineLog.minuteOf(closeAt);
    Expected expected = expected(deployment, log.ids(), log.windows(), windowsBefore);
    Await.until(
        scenario + ": every closed window in window_results",
        timeout,
        () -> {
          pipeline.assertAppsAlive();
          Report r = ZeroLossOracle.check(clickhouseUrl, database, expected);
          return r.lost().isEmpty()
              && r.missingWindows().isEmpty()
              && (windowsAtLeastOnce
                  ? r.underCountedEvents() == 0
                  : r.wrongCountWindows().isEmpty());
        },
        () -> ZeroLossOracle.check(clickhouseUrl, database, expected).details(scenario));
    Thread.sleep(3000);
    Report report = ZeroLossOracle.check(clickhouseUrl, database, expected);
    pipeline.record(report.details(scenario));
    return new Outcome(deployment, expected, report, closeAt);
  }

  /** The oracle's inputs and verdict of a settled scenario. */
  record Outcome(String deployment, Expected expected, Report report, LocalDateTime closeAt) {}

  static Expected expected(
      String deployment, Set<String> ids, Map<WindowKey, Long> windows, String before) {
    Map<WindowKey, Long> closed =
        windows.entrySet().stream()
            .filter(e -> e.getKey().windowStart().compareTo(before) < 0)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    return new Expected(Set.of(deployment), ids, closed, before);
  }

  /**
   * The negative control: the same oracle must fail when the pipeline loses, duplicates or adds.
   * Lost: a file of the same deployment written outside the shipper's glob ({@code dropped.held}: 5
   * lines in the scenario's first minute, 1 line in a minute with no other data), which the oracle
   * is told went in. Duplicated: a copy of a real row under the same event id with the event time
   * one second later (a dedup key that no longer matches). Extra: a row with an id nobody wrote. A
   * duplicated window: a second total row for the last data minute (other spec_enabled). Asserts
   * the report names exactly those, and prints it.
   */
  void negativeControl(String scenario, EngineLog log, Outcome clean, LocalDateTime start)
      throws Exception {
    String database = pipeline.database;
    String d = clean.deployment();
    EngineLog dropped =
        new EngineLog(log.path.resolveSibling("dropped.held"), "gpu-" + d, d, start);
    dropped.metrics(5);
    dropped.metricAt(clean.closeAt().minusMinutes(30));
    String dupId = log.ids().stream().sorted().findFirst().orElseThrow();
    String dupTime =
        pipeline
            .query(
                "SELECT toString(event_time + 1) FROM "
                    + database
                    + ".decode_events WHERE event_id = '"
                    + dupId
                    + "' LIMIT 1")
            .strip();
    pipeline.query(
        "INSERT INTO "
            + database
            + ".decode_events (event_id, deployment_id, event_time, event_time_ms)"
            + " FORMAT JSONEachRow {\"event_id\":\""
            + dupId
            + "\",\"deployment_id\":\""
            + d
            + "\",\"event_time\":\""
            + dupTime
            + "\",\"event_time_ms\":0}");
    String extraId = "negative-control-extra-" + d;
    pipeline.query(
        "INSERT INTO "
            + database
            + ".decode_events (event_id, deployment_id, event_time, event_time_ms)"
            + " FORMAT JSONEachRow {\"event_id\":\""
            + extraId
            + "\",\"deployment_id\":\""
            + d
            + "\",\"event_time\":\""
            + dupTime
            + "\",\"event_time_ms\":0}");
    Map.Entry<WindowKey, Long> last =
        clean.expected().windows().entrySet().stream()
            .max(Map.Entry.comparingByKey())
            .orElseThrow();
    pipeline.query(
        "INSERT INTO "
            + database
            + ".window_results (deployment_id, prompt_category, batch_bucket,"
            + " window_start, window_end, events, spec_enabled) FORMAT JSONEachRow {\"deployment_id\":\""
            + d
            + "\",\"prompt_category\":\"*\",\"batch_bucket\":\"*\",\"window_start\":\""
            + last.getKey().windowStart()
            + "\",\"window_end\":\""
            + last.getKey().windowStart()
            + "\",\"events\":"
            + last.getValue()
            + ",\"spec_enabled\":7}");

    Set<String> ids = new HashSet<>(clean.expected().eventIds());
    ids.addAll(dropped.ids());
    Map<WindowKey, Long> windows = new HashMap<>(clean.expected().windows());
    dropped.windows().forEach((k, v) -> windows.merge(k, v, Long::sum));
    Expected withDropped = expected(d, ids, windows, clean.expected().windowsBefore());
    Report r = ZeroLossOracle.check(pipeline.clickhouseUrl, database, withDropped);
    pipeline.record(r.details(scenario + " (negative control)"));
    Set<WindowKey> droppedWindows = dropped.windows().keySet();
    WindowKey gap = new WindowKey(d, EngineLog.minuteOf(clean.closeAt().minusMinutes(30)));
    assertThat(r.clean()).isFalse();
    assertThat(r.lost()).as(r.details(scenario)).isEqualTo(dropped.ids());
    assertThat(r.duplicated()).containsExactly(dupId);
    assertThat(r.extra()).containsExactly(extraId);
    assertThat(r.missingWindows()).containsExactly(gap);
    assertThat(r.duplicatedWindows()).containsExactly(last.getKey());
    Set<WindowKey> wrongExpected = new TreeSet<>(clean.report().wrongCountWindows().keySet());
    droppedWindows.stream().filter(k -> !k.equals(gap)).forEach(wrongExpected::add);
    assertThat(r.wrongCountWindows().keySet()).isEqualTo(wrongExpected);
    assertThat(r.underCountedEvents()).isEqualTo(dropped.ids().size() - 1);
  }

  static String deploymentOf(EngineLog log) {
    return log.deployment();
  }
}
