package io.specwatch.sink.bench;

import static io.specwatch.sink.bench.BenchData.table;
import static io.specwatch.sink.bench.BenchData.write;

import io.specwatch.sink.InsertFormat;
import io.specwatch.sink.SinkConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.JsonEachRowWriter;
import io.specwatch.sink.rows.RowBinaryWriter;
import io.specwatch.sink.rows.RowMapping;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;

/**
 * The three Java insert paths, each inserting the rows in {@link #CHUNK}-row inserts: client-v2
 * RowBinary, client-v2 JSONEachRow, and clickhouse-jdbc batches; each reports its rows/s and its
 * ratio to the latest {@link ClientBaseline} rate of the same table.
 */
final class InsertPaths {

  static final int CHUNK = SinkConfig.DEFAULT_BATCH_SIZE;
  static final List<String> PATHS =
      List.of("client-v2 RowBinary", "client-v2 JSONEachRow", "jdbc batch");

  private final BenchTarget target;
  private final Map<String, Double> baseline = new LinkedHashMap<>();

  InsertPaths(BenchTarget target) {
    this.target = target;
  }

  /** The clickhouse-client rows/s the next reported run of this table is compared with. */
  void baseline(String table, double rowsPerSecond) {
    baseline.put(table, rowsPerSecond);
  }

  void insertPath(
      String path,
      String db,
      RowMapping<?> m,
      List<? extends SpecificRecord> rows,
      String version,
      boolean report)
      throws Exception {
    long t0 = System.nanoTime();
    try {
      switch (path) {
        case "client-v2 RowBinary", "client-v2 JSONEachRow" -> clientV2(path, db, m, rows);
        default -> jdbc(db, m, rows, version);
      }
    } catch (Exception e) {
      System.out.printf("  %-22s %-15s FAILED: %s%n", path, table(m), e);
      return;
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    target.check(db, table(m), rows.size());
    if (!report) {
      return;
    }
    double rate = rows.size() / seconds;
    System.out.printf(
        "  %-22s %-15s %6.2f s  %9.0f rows/s  ratio to clickhouse-client %.2f%n",
        path, table(m), seconds, rate, rate / baseline.get(table(m)));
  }

  private void clientV2(
      String path, String db, RowMapping<?> m, List<? extends SpecificRecord> rows) {
    boolean json = path.endsWith("JSONEachRow");
    InsertFormat format = json ? InsertFormat.JSON_EACH_ROW : InsertFormat.ROW_BINARY;
    try (ClickHouseSql sql = new ClickHouseSql(target.config(db))) {
      for (int from = 0; from < rows.size(); from += CHUNK) {
        ByteSink bytes = new ByteSink(1 << 20);
        RowBinaryWriter binary = new RowBinaryWriter(bytes);
        JsonEachRowWriter jsonWriter = new JsonEachRowWriter(bytes);
        int to = Math.min(rows.size(), from + CHUNK);
        for (int i = from; i < to; i++) {
          if (json) {
            jsonWriter.startRow();
            write(m, rows.get(i), i, jsonWriter);
            jsonWriter.endRow();
          } else {
            write(m, rows.get(i), i, binary);
          }
        }
        sql.insert(
            db + "." + table(m),
            m.columns(),
            format.clickHouseFormat(),
            bytes.slice(0, bytes.size()),
            Optional.empty());
      }
    }
  }

  private void jdbc(String db, RowMapping<?> m, List<? extends SpecificRecord> rows, String version)
      throws Exception {
    Properties p = new Properties();
    p.setProperty("user", "default");
    p.setProperty("password", "");
    String url = "jdbc:clickhouse://" + target.httpUrl.replaceFirst("^https?://", "") + "/" + db;
    if (version.startsWith("18.")) {
      url += "?clickhouse.jdbc.v1=true";
      p.setProperty("server_version", version);
      p.setProperty("server_time_zone", "UTC");
      p.setProperty("format", "TabSeparatedWithNamesAndTypes");
      p.setProperty("compress", "false");
      p.setProperty("custom_http_params", "default_format=TabSeparatedWithNamesAndTypes");
    }
    List<String> cols = m.columns();
    StringBuilder sql =
        new StringBuilder(
            "INSERT INTO " + db + "." + table(m) + " (" + String.join(", ", cols) + ") VALUES (");
    for (int i = 0; i < cols.size() - 1; i++) {
      sql.append("?, ");
    }
    sql.append("'2026-03-15 00:00:00')");
    try (Connection c = DriverManager.getConnection(url, p);
        PreparedStatement ps = c.prepareStatement(sql.toString())) {
      JdbcWriter w = new JdbcWriter(ps);
      for (int i = 0; i < rows.size(); i++) {
        write(m, rows.get(i), i, w);
        w.endRow();
        if ((i + 1) % CHUNK == 0 || i == rows.size() - 1) {
          ps.executeBatch();
        }
      }
    }
  }
}
