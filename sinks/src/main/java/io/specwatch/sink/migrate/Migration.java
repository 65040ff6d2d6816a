package io.specwatch.sink.migrate;

import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.clickhouse.SqlTemplate;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One versioned SQL file {@code V<version>__<description>.sql}. The text may hold several
 * statements separated by a {@code ;} at the end of a line, the placeholder {@code ${database}} and
 * the version-aware placeholders of {@link SqlTemplate} ({@code ${DateTimeMs}}, {@code
 * ${LowCardinality(String)}}, {@code ${codec(...)}}, {@code ${ttl(...)}}...). The checksum is taken
 * over the template text, so it is the same whatever server the file is rendered for.
 *
 * <p>A comment line {@code -- replaces-checksum: <sha256>} declares an earlier text of the same
 * version as equivalent (used once, when V001 became a template: databases migrated with the old
 * 18.16-only text are up to date, their schema is exactly what the legacy rendering gives).
 */
public record Migration(int version, String description, String sql) {

  private static final Pattern FILE_NAME = Pattern.compile("V(\\d+)__([A-Za-z0-9_]+)\\.sql");

  private static final Pattern REPLACES =
      Pattern.compile("^--\\s*replaces-checksum:\\s*([0-9a-f]{64})\\s*$", Pattern.MULTILINE);

  public Migration {
    if (version <= 0) {
      throw new IllegalArgumentException("migration version must be positive: " + version);
    }
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(sql, "sql");
    if (sql.isBlank()) {
      throw new IllegalArgumentException("migration V" + version + " is empty");
    }
  }

  /** Parses a file name such as {@code V001__window_results.sql}. */
  public static Migration fromFile(String fileName, String sql) {
    Matcher m = FILE_NAME.matcher(fileName);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "migration file name must look like V001__description.sql: " + fileName);
    }
    return new Migration(Integer.parseInt(m.group(1)), m.group(2), sql);
  }

  /** True for names that {@link #fromFile} accepts. */
  public static boolean isMigrationFile(String fileName) {
    return FILE_NAME.matcher(fileName).matches();
  }

  /** SHA-256 of the SQL text: an applied migration must never change. */
  public String checksum() {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(sql.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /** Checksums of earlier texts declared equivalent by {@code -- replaces-checksum:} lines. */
  public Set<String> replacedChecksums() {
    return REPLACES
        .matcher(sql)
        .results()
        .map(r -> r.group(1))
        .collect(Collectors.toUnmodifiableSet());
  }

  /** True when a database that recorded {@code appliedChecksum} has this migration applied. */
  public boolean isAppliedAs(String appliedChecksum) {
    return checksum().equals(appliedChecksum) || replacedChecksums().contains(appliedChecksum);
  }

  /**
   * The statements, comments removed, rendered for the dialect with {@code ${database}} replaced by
   * the given name.
   */
  public List<String> statements(String database, SqlDialect dialect) {
    Map<String, String> vars = Map.of("database", database);
    return rawStatements().stream().map(s -> SqlTemplate.render(s, dialect, vars).strip()).toList();
  }

  /** The statements as written (placeholders kept), comments removed. */
  public List<String> rawStatements() {
    StringBuilder current = new StringBuilder();
    List<String> out = new ArrayList<>();
    for (String line : sql.split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.startsWith("--") || trimmed.isEmpty()) {
        continue;
      }
      current.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        addStatement(out, current);
      }
    }
    addStatement(out, current);
    return List.copyOf(out);
  }

  private static void addStatement(List<String> out, StringBuilder current) {
    String statement = current.toString().strip();
    current.setLength(0);
    if (statement.endsWith(";")) {
      statement = statement.substring(0, statement.length() - 1).strip();
    }
    if (!statement.isEmpty()) {
      out.add(statement);
    }
  }
}
