package io.specwatch.sink.dashboard;

import io.specwatch.runtime.AppRuntime;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.io.IOException;
import java.time.Duration;

/**
 * The dashboard as the {@code dashboard} command runs it: the {@link DashboardServer} with its
 * request metrics in the app's registry and a {@link ClickHouseProbe} driving the app's readiness;
 * the {@link AppRuntime} (health port, registry) belongs to the caller and outlives this.
 */
public final class DashboardApp implements AutoCloseable {

  /** How often the command's probe asks ClickHouse. */
  public static final Duration PROBE_INTERVAL = Duration.ofSeconds(5);

  private final DashboardServer server;
  private final ClickHouseProbe probe;

  private DashboardApp(DashboardServer server, ClickHouseProbe probe) {
    this.server = server;
    this.probe = probe;
  }

  /** Starts the page server on {@code bind:port} (0: ephemeral) and the probe. */
  public static DashboardApp start(
      ClickHouseSql sql,
      String database,
      String bind,
      int port,
      AppRuntime app,
      Duration probeInterval)
      throws IOException {
    DashboardServer server = DashboardServer.start(sql, database, bind, port, app.registry());
    try {
      return new DashboardApp(
          server, ClickHouseProbe.start(sql, app.readiness(), app.registry(), probeInterval));
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The page's port. */
  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    try {
      probe.close();
    } finally {
      server.close();
    }
  }
}
