package io.specwatch.sink.cli;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rollup.Rollups;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rollups --rebuild-month 2026-03}: recomputes a month of every rollup exactly. */
@Command(
    name = "rollups",
    description =
        "Recompute one month of the hourly/daily rollups from the FINAL base tables (after a"
            + " replay counted rows twice).")
public final class RollupsCommand implements Callable<Integer> {

  @Mixin ClickHouseOptions clickhouse;

  @Option(
      names = "--rebuild-month",
      required = true,
      description = "The month to recompute, e.g. 2026-03 (UTC).")
  String month;

  @Override
  public Integer call() {
    YearMonth ym;
    try {
      ym = YearMonth.parse(month.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--rebuild-month must look like 2026-03, got: " + month, e);
    }
    ClickHouseConfig config = clickhouse.toConfig();
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      new Rollups(sql, config.database()).rebuild(ym);
    }
    System.out.println("rebuilt the rollups of " + ym + " in " + config.database());
    return 0;
  }
}
