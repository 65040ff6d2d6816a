package io.specwatch.sink.dashboard;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.specwatch.runtime.Readiness;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's readiness: every {@code interval} it asks ClickHouse {@code SELECT version()};
 * ready while it answers, not ready ("ClickHouse not answering: ...") while it does not, so a load
 * balancer stops sending page loads that could only answer 502. The first check runs at once.
 * Exports {@code specwatch_dashboard_clickhouse_up} (1 or 0) and {@code
 * specwatch_dashboard_clickhouse_probe_failures_total}.
 */
public final class ClickHouseProbe implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ClickHouseProbe.class);

  private final ClickHouseSql sql;
  private final Readiness readiness;
  private final AtomicInteger up = new AtomicInteger();
  private final Counter failures;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "dashboard-probe");
            t.setDaemon(true);
            return t;
          });

  private ClickHouseProbe(ClickHouseSql sql, Readiness readiness, MeterRegistry registry) {
    this.sql = sql;
    this.readiness = readiness;
    Gauge.builder("specwatch.dashboard.clickhouse.up", up, AtomicInteger::get)
        .description("1 while ClickHouse answered the last probe, else 0")
        .register(registry);
    this.failures =
        Counter.builder("specwatch.dashboard.clickhouse.probe.failures")
            .description("Probes ClickHouse did not answer")
            .register(registry);
  }

  /** Checks now, then every {@code interval} until closed. */
  public static ClickHouseProbe start(
      ClickHouseSql sql, Readiness readiness, MeterRegistry registry, Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("probe interval must be positive, got: " + interval);
    }
    ClickHouseProbe probe = new ClickHouseProbe(sql, readiness, registry);
    probe.timer.scheduleWithFixedDelay(probe::check, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    return probe;
  }

  void check() {
    try {
      sql.serverVersion();
      if (up.getAndSet(1) == 0) {
        log.info("ClickHouse answers: dashboard ready");
      }
      readiness.ready();
    } catch (RuntimeException e) {
      failures.increment();
      if (up.getAndSet(0) == 1) {
        log.warn("ClickHouse stopped answering: dashboard not ready: {}", e.getMessage());
      }
      readiness.notReady("ClickHouse not answering: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
