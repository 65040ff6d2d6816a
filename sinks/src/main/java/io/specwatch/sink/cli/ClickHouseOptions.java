package io.specwatch.sink.cli;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import picocli.CommandLine.Option;

/** ClickHouse options shared by every subcommand; each also read from an env var. */
public final class ClickHouseOptions {

  @Option(
      names = "--clickhouse-url",
      defaultValue = "${env:SPECWATCH_CLICKHOUSE_URL:-http://127.0.0.1:18123}",
      description = "ClickHouse HTTP URL (env SPECWATCH_CLICKHOUSE_URL, default ${DEFAULT-VALUE}).")
  String url;

  @Option(
      names = "--clickhouse-user",
      defaultValue = "${env:SPECWATCH_CLICKHOUSE_USER:-default}",
      description = "ClickHouse user (env SPECWATCH_CLICKHOUSE_USER, default ${DEFAULT-VALUE}).")
  String user;

  @Option(
      names = "--clickhouse-password",
      defaultValue = "${env:SPECWATCH_CLICKHOUSE_PASSWORD:-}",
      description = "ClickHouse password (env SPECWATCH_CLICKHOUSE_PASSWORD).")
  String password;

  @Option(
      names = "--clickhouse-password-file",
      defaultValue = "${env:SPECWATCH_CLICKHOUSE_PASSWORD_FILE}",
      description =
          "File holding the ClickHouse password, e.g. a mounted Secret"
              + " (env SPECWATCH_CLICKHOUSE_PASSWORD_FILE); instead of --clickhouse-password.")
  java.nio.file.Path passwordFile;

  @Option(
      names = "--database",
      defaultValue = "${env:SPECWATCH_CLICKHOUSE_DATABASE:-specwatch}",
      description =
          "ClickHouse database (env SPECWATCH_CLICKHOUSE_DATABASE, default ${DEFAULT-VALUE}).")
  String database;

  ClickHouseConfig toConfig() {
    String pw = password;
    if (passwordFile != null) {
      if (pw != null && !pw.isEmpty()) {
        throw new IllegalArgumentException(
            "--clickhouse-password and --clickhouse-password-file"
                + " (SPECWATCH_CLICKHOUSE_PASSWORD_FILE): give only one");
      }
      try {
        pw = java.nio.file.Files.readString(passwordFile).strip();
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException(
            "--clickhouse-password-file (SPECWATCH_CLICKHOUSE_PASSWORD_FILE): cannot read "
                + passwordFile,
            e);
      }
    }
    return ClickHouseConfig.of(url, user, pw, database);
  }
}
