package io.specwatch.sink.dashboard;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.sqlcheck.Fixtures;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * A fresh database in the real ClickHouse (Testcontainers) with {@code fixtures/dashboard.sql} and
 * a dashboard server over it on an ephemeral port.
 */
final class DashboardFixture implements AutoCloseable {

  final String database;
  final ClickHouseConfig config;
  final ClickHouseSql sql;
  final DashboardServer server;

  DashboardFixture(String prefix) {
    database = SpecwatchContainers.uniqueName(prefix);
    config = ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", database);
    sql = new ClickHouseSql(config);
    Migrator.withBundledMigrations(sql, database).migrate();
    Fixtures.statements("dashboard.sql", database).forEach(sql::execute);
    try {
      server = DashboardServer.start(sql, database, "127.0.0.1", 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String url(String pathAndQuery) {
    return "http://127.0.0.1:" + server.port() + pathAndQuery;
  }

  /** GET; returns status and body. */
  HttpResponse<String> get(String pathAndQuery) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create(url(pathAndQuery))).GET().build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.close();
    sql.close();
  }
}
