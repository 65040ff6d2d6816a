package io.specwatch.sink.clickhouse;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The sink's only door to ClickHouse: statements, TabSeparated reads and JSONEachRow inserts over
 * HTTP through client-v2, with compression OFF in both directions (ClickHouse 18.16 answers a
 * compressed request with 200 and an empty body). Only text formats are used, so the same calls
 * work on 18.16 and on modern servers.
 */
public final class ClickHouseSql implements AutoCloseable {

  private static final long TIMEOUT_SECONDS = 60;

  private final Client client;

  public ClickHouseSql(ClickHouseConfig config) {
    this.client =
        new Client.Builder()
            .addEndpoint(config.endpoint())
            .setUsername(config.user())
            .setPassword(config.password())
            .compressServerResponse(false)
            .compressClientRequest(false)
            .useHttpCompression(false)
            .serverSetting("enable_http_compression", "0")
            .build();
  }

  /** Runs a statement that returns no rows (DDL, INSERT ... VALUES). */
  public void execute(String sql) {
    readAll("execute", sql);
  }

  /** Runs a SELECT and returns the rows as TabSeparated cells; the first row holds the names. */
  public List<List<String>> queryTsvWithNames(String select) {
    return queryTsvWithNames(select, null);
  }

  /**
   * Like {@link #queryTsvWithNames(String)} with {@code database} as the default database, so
   * unqualified table names resolve there (the SQL cookbook's queries are written that way).
   */
  public List<List<String>> queryTsvWithNames(String select, String database) {
    String sql = select.strip() + "\nFORMAT TabSeparatedWithNames";
    QuerySettings settings = textSettings();
    if (database != null) {
      // the URL parameter, which every server version reads (18.16 ignores client-v2's header)
      settings.serverSetting("database", database);
    }
    byte[] body = readAll("query", sql, settings);
    try {
      return parseTsv(new ByteArrayInputStream(body));
    } catch (IOException e) {
      throw ClickHouseFailure.wrap("query", select, e);
    }
  }

  /** Inserts newline-separated JSON objects; returns the rows the server reports written. */
  public long insertJsonEachRow(String qualifiedTable, byte[] jsonLines) {
    InsertSettings settings = new InsertSettings();
    settings.compressClientRequest(false);
    try (InsertResponse response =
        await(
            client.insert(
                qualifiedTable,
                new ByteArrayInputStream(jsonLines),
                ClickHouseFormat.JSONEachRow,
                settings))) {
      return response.getWrittenRows();
    } catch (Exception e) {
      throw ClickHouseFailure.wrap("insert", qualifiedTable, e);
    }
  }

  /**
   * Inserts an encoded body (RowBinary, JSONEachRow...) into the named columns; returns the rows
   * the server reports written. With a {@code dedupToken} the insert carries {@code
   * insert_deduplication_token} (only send one to servers that know the setting, 22.2+: older ones
   * reject unknown settings).
   */
  public long insert(
      String qualifiedTable,
      List<String> columns,
      ClickHouseFormat format,
      InputStream body,
      Optional<String> dedupToken) {
    InsertSettings settings = new InsertSettings();
    settings.compressClientRequest(false);
    dedupToken.ifPresent(settings::setDeduplicationToken);
    try (InsertResponse response =
        await(client.insert(qualifiedTable, columns, body, format, settings))) {
      return response.getWrittenRows();
    } catch (Exception e) {
      throw ClickHouseFailure.wrap("insert", qualifiedTable, e);
    }
  }

  /**
   * True when the server knows {@code insert_deduplication_token} (ClickHouse 22.2 and later).
   * 18.16 does not: there the sink relies on ReplacingMergeTree natural keys alone.
   */
  public static boolean supportsDedupToken(String version) {
    String[] parts = version.strip().split("\\.");
    try {
      int major = Integer.parseInt(parts[0]);
      int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return major > 22 || (major == 22 && minor >= 2);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Server version text, e.g. {@code 18.16.1} or {@code 24.8.4.13}. */
  public String serverVersion() {
    return queryTsvWithNames("SELECT version() AS v").get(1).get(0);
  }

  /** The SQL dialect this server gets (from {@link #serverVersion()}). */
  public SqlDialect dialect() {
    return SqlDialect.of(ServerVersion.parse(serverVersion()));
  }

  private byte[] readAll(String operation, String sql) {
    return readAll(operation, sql, textSettings());
  }

  private byte[] readAll(String operation, String sql, QuerySettings settings) {
    QueryResponse response = null;
    try {
      response = await(client.query(sql, settings));
      return response.getInputStream().readAllBytes();
    } catch (Exception e) {
      throw ClickHouseFailure.wrap(operation, sql, e);
    } finally {
      closeQuietly(response);
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static QuerySettings textSettings() {
    return new QuerySettings().setFormat(ClickHouseFormat.TabSeparatedWithNames);
  }

  private static <T> T await(java.util.concurrent.CompletableFuture<T> future)
      throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  static List<List<String>> parseTsv(InputStream in) throws IOException {
    return parseTsv(new String(in.readAllBytes(), StandardCharsets.UTF_8));
  }

  /** Rows of a TabSeparated text, cells unescaped ({@code \N} becomes null). */
  public static List<List<String>> parseTsv(String body) {
    List<List<String>> rows = new ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      rows.add(Arrays.stream(line.split("\t", -1)).map(ClickHouseSql::unescape).toList());
    }
    return rows;
  }

  /** Undoes TabSeparated escaping; {@code \N} (NULL) becomes {@code null}. */
  static String unescape(String cell) {
    if ("\\N".equals(cell)) {
      return null;
    }
    if (cell.indexOf('\\') < 0) {
      return cell;
    }
    StringBuilder out = new StringBuilder(cell.length());
    for (int i = 0; i < cell.length(); i++) {
      char c = cell.charAt(i);
      if (c != '\\' || i + 1 == cell.length()) {
        out.append(c);
        continue;
      }
      char next = cell.charAt(++i);
      out.append(
          switch (next) {
            case 't' -> '\t';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case '0' -> '\0';
            case 'b' -> '\b';
            case 'f' -> '\f';
            default -> next;
          });
    }
    return out.toString();
  }

  @Override
  public void close() {
    client.close();
  }
}
