package io.specwatch.sink.cli;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code migrate}: applies the bundled SQL migrations and exits. */
@Command(name = "migrate", description = "Create or upgrade the ClickHouse tables, then exit.")
public final class MigrateCommand implements Callable<Integer> {

  @Mixin ClickHouseOptions clickhouse;

  @Override
  public Integer call() {
    ClickHouseConfig config = clickhouse.toConfig();
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      List<Integer> applied = Migrator.withBundledMigrations(sql, config.database()).migrate();
      System.out.println(
          applied.isEmpty()
              ? "database " + config.database() + " is up to date"
              : "applied migrations " + applied + " to " + config.database());
    }
    return 0;
  }
}
