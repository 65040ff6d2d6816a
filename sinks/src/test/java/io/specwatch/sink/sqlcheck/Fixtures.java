package io.specwatch.sink.sqlcheck;

import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.migrate.Migration;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The known rows in {@code src/test/resources/fixtures/*.sql}, as statements for a database. */
public final class Fixtures {

  public static final List<String> ALL =
      List.of("window_results.sql", "request_acceptance.sql", "context_and_alerts.sql");

  private Fixtures() {}

  /** The statements of one fixture file (split like a migration, {@code ${database}} filled). */
  public static List<String> statements(String file, String database) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + file)) {
      if (in == null) {
        throw new IllegalStateException("no fixture " + file);
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new Migration(1, "fixture", text).statements(database, SqlDialect.LEGACY);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
