package io.specwatch.sink.cli;

import io.specwatch.sink.TextTable;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.cookbook.Cookbook;
import io.specwatch.sink.cookbook.CookbookQuery;
import io.specwatch.sink.cookbook.QueryParam;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code query NAME}: runs one query of the SQL cookbook ({@code sql/NAME.sql}). */
@Command(
    name = "query",
    description = "Run a query of the SQL cookbook (sql/NAME.sql); without NAME, list them.")
public final class QueryCommand implements Callable<Integer> {

  @Mixin ClickHouseOptions clickhouse;

  @Parameters(index = "0", arity = "0..1", description = "Query name (file name without .sql).")
  String name;

  @Option(
      names = {"-p", "--param"},
      description = "A parameter, name=value (repeatable); see the query's header for its params.")
  Map<String, String> params = new LinkedHashMap<>();

  @Option(names = "--print-sql", description = "Print the rendered SQL instead of running it.")
  boolean printSql;

  @Override
  public Integer call() {
    Cookbook book = Cookbook.bundled();
    if (name == null) {
      for (CookbookQuery q : book.queries()) {
        System.out.println(q.name() + ": " + q.question());
        for (QueryParam p : q.params()) {
          System.out.println(
              "    --param "
                  + p.name()
                  + "=<"
                  + p.type()
                  + "> (default '"
                  + p.defaultValue()
                  + "') "
                  + p.description());
        }
      }
      return 0;
    }
    CookbookQuery query = book.get(name);
    String rendered = query.render(params);
    if (printSql) {
      System.out.println(rendered);
      return 0;
    }
    ClickHouseConfig config = clickhouse.toConfig();
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      List<List<String>> rows = sql.queryTsvWithNames(rendered, config.database());
      System.out.print(TextTable.format(rows));
      System.out.println("(" + (rows.size() - 1) + " rows)");
    }
    return 0;
  }
}
