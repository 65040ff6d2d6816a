package io.specwatch.sink.cli;

import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.dashboard.DashboardApp;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dashboard}: serves the web dashboard over the ClickHouse tables until SIGTERM; with a
 * health port also {@code /health/live}, {@code /health/ready} (ClickHouse answers) and {@code
 * /metrics}.
 */
@Command(
    name = "dashboard",
    mixinStandardHelpOptions = true,
    description = "Serve the web dashboard (charts over ClickHouse) until interrupted.")
public final class DashboardCommand implements Callable<Integer> {

  @Mixin ClickHouseOptions clickhouse;

  @Mixin HealthOptions health = new HealthOptions();

  @Option(
      names = "--port",
      defaultValue = "${env:SPECWATCH_DASHBOARD_PORT:-8088}",
      description = "HTTP port (env SPECWATCH_DASHBOARD_PORT, default ${DEFAULT-VALUE}; 0 = any).")
  int port;

  @Option(
      names = "--bind",
      defaultValue = "${env:SPECWATCH_DASHBOARD_BIND:-127.0.0.1}",
      description =
          "Address to listen on (env SPECWATCH_DASHBOARD_BIND, default ${DEFAULT-VALUE}; 0.0.0.0 in"
              + " containers).")
  String bind;

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be 0..65535, got: " + port);
    }
    health.validate();
    ClickHouseConfig config = clickhouse.toConfig();
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      String version = sql.serverVersion(); // fail fast when ClickHouse does not answer
      try (AppRuntime app = AppRuntime.start("dashboard", health);
          DashboardApp server =
              DashboardApp.start(
                  sql, config.database(), bind, port, app, DashboardApp.PROBE_INTERVAL)) {
        System.out.printf(
            "dashboard: http://%s:%d/ (ClickHouse %s, database %s)%n",
            bind, server.port(), version, config.database());
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "dashboard-stop"));
        stop.await();
      }
    }
    return 0;
  }
}
