package io.specwatch.sink.bench;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What one {@link SinkBench} run talks to (Kafka, the registry, ClickHouse over HTTP and the TCP
 * port clickhouse-client uses), its work directory and run id, and the databases it creates: one
 * per step, migrated, named {@code bench_<run>_<step>}.
 */
final class BenchTarget {

  final String bootstrap;
  final String registry;
  final String httpUrl;
  final String tcpPort;
  final Path work;
  final String run = Long.toHexString(System.currentTimeMillis());

  BenchTarget(String bootstrap, String registry, String httpUrl, String tcpPort, Path work) {
    this.bootstrap = bootstrap;
    this.registry = registry;
    this.httpUrl = httpUrl;
    this.tcpPort = tcpPort;
    this.work = work;
  }

  ClickHouseConfig config(String db) {
    return ClickHouseConfig.of(httpUrl, "default", "", db);
  }

  String database(String name) {
    String db = "bench_" + run + "_" + name.toLowerCase(Locale.ROOT);
    try (ClickHouseSql sql = new ClickHouseSql(config(db))) {
      Migrator.withBundledMigrations(sql, db).migrate();
    }
    return db;
  }

  /** Fails the benchmark unless the table holds exactly the expected number of rows. */
  void check(String db, String table, long expected) {
    try (ClickHouseSql sql = new ClickHouseSql(config(db))) {
      long n =
          Long.parseLong(
              sql.queryTsvWithNames("SELECT count() FROM " + db + "." + table).get(1).get(0));
      if (n != expected) {
        throw new IllegalStateException(
            db + "." + table + " has " + n + " rows, expected " + expected);
      }
    }
  }
}
