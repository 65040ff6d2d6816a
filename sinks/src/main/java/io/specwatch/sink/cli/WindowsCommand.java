package io.specwatch.sink.cli;

import io.specwatch.sink.WindowQueries;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code windows}: prints window rows read back from ClickHouse (with FINAL). */
@Command(name = "windows", description = "Print window rows read back from ClickHouse.")
public final class WindowsCommand implements Callable<Integer> {

  @Mixin ClickHouseOptions clickhouse;

  @Option(names = "--deployment", description = "Only this deployment id.")
  String deployment;

  @Option(
      names = "--limit",
      defaultValue = "1000",
      description = "At most this many rows (default ${DEFAULT-VALUE}).")
  int limit;

  @Override
  public Integer call() {
    if (limit < 1) {
      throw new IllegalArgumentException("--limit must be >= 1, got: " + limit);
    }
    ClickHouseConfig config = clickhouse.toConfig();
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      List<List<String>> rows =
          new WindowQueries(sql, config.database()).windows(Optional.ofNullable(deployment), limit);
      System.out.print(io.specwatch.sink.TextTable.format(rows));
      System.out.println("(" + (rows.size() - 1) + " rows)");
    }
    return 0;
  }
}
