package io.specwatch.sink.migrate;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.clickhouse.ServerVersion;
import io.specwatch.sink.clickhouse.SqlDialect;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the versioned SQL files in order and records each in {@code <db>.schema_migrations}
 * (version, description, checksum, applied_at). A second run applies nothing. An applied file whose
 * text changed is an error: add a new version instead. Statements use {@code IF NOT EXISTS} so a
 * migration interrupted half-way can run again. Not safe against two migrators at the same moment
 * (run it from one place: the sink's start or {@code sinks migrate}).
 *
 * <p>The server's version ({@code SELECT version()}) picks the {@link SqlDialect} each migration is
 * rendered in: 18.16 gets plain types, 22.3+ gets DateTime64, LowCardinality, codecs and TTL. A
 * database keeps the types it was created with when the server is upgraded later.
 */
public final class Migrator {

  private static final Logger log = LoggerFactory.getLogger(Migrator.class);

  private final ClickHouseSql sql;
  private final String database;
  private final List<Migration> migrations;

  public Migrator(ClickHouseSql sql, String database, List<Migration> migrations) {
    this.sql = sql;
    this.database = database;
    this.migrations = MigrationLoader.sorted(migrations);
  }

  /** Uses the migrations bundled in this module. */
  public static Migrator withBundledMigrations(ClickHouseSql sql, String database) {
    return new Migrator(sql, database, MigrationLoader.loadDefault());
  }

  /** Applies what is missing; returns the versions applied by this call (empty if up to date). */
  public List<Integer> migrate() {
    ServerVersion version = ServerVersion.parse(sql.serverVersion());
    SqlDialect dialect = SqlDialect.of(version);
    log.info("Migrating database {} on ClickHouse {} ({} SQL)", database, version, dialect);
    sql.execute("CREATE DATABASE IF NOT EXISTS " + database);
    sql.execute(createMigrationsTable(database));
    Map<Integer, String> applied = appliedChecksums();
    List<Integer> done = new java.util.ArrayList<>();
    for (Migration m : migrations) {
      String known = applied.get(m.version());
      if (known != null) {
        if (!m.isAppliedAs(known)) {
          throw new IllegalStateException(
              "migration V"
                  + m.version()
                  + " ("
                  + m.description()
                  + ") was applied with another text; never edit an applied migration, add one");
        }
        continue;
      }
      for (String statement : m.statements(database, dialect)) {
        sql.execute(statement);
      }
      sql.execute(
          "INSERT INTO "
              + database
              + ".schema_migrations (version, description, checksum, applied_at) VALUES ("
              + m.version()
              + ", '"
              + m.description()
              + "', '"
              + m.checksum()
              + "', now())");
      log.info("Applied migration V{} {} to {}", m.version(), m.description(), database);
      done.add(m.version());
    }
    if (done.isEmpty()) {
      log.info("Database {} is up to date ({} migrations)", database, migrations.size());
    }
    return List.copyOf(done);
  }

  /** The bookkeeping table's DDL (the same on every server version). */
  public static String createMigrationsTable(String database) {
    return "CREATE TABLE IF NOT EXISTS "
        + database
        + ".schema_migrations (version UInt32, description String, checksum String,"
        + " applied_at DateTime('UTC')) ENGINE = MergeTree() ORDER BY version";
  }

  /** Version to checksum of what the table says was applied. */
  public Map<Integer, String> appliedChecksums() {
    List<List<String>> rows =
        sql.queryTsvWithNames(
            "SELECT version, any(checksum) AS checksum FROM "
                + database
                + ".schema_migrations GROUP BY version ORDER BY version");
    Map<Integer, String> out = new HashMap<>();
    for (List<String> row : rows.subList(1, rows.size())) {
      out.put(Integer.parseInt(row.get(0)), row.get(1));
    }
    return out;
  }
}
