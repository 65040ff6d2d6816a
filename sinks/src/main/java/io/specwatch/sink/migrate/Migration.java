package io.specwatch.sink.migrate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One versioned SQL file {@code V<version>__<description>.sql}. The text may hold several
 * statements separated by a {@code ;} at the end of a line and the placeholder {@code ${database}}.
 */
public record Migration(int version, String description, String sql) {

  private static final Pattern FILE_NAME = Pattern.compile("V(\\d+)__([A-Za-z0-9_]+)\\.sql");

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

  /** The statements, comments removed, with {@code ${database}} replaced by the given name. */
  public List<String> statements(String database) {
    StringBuilder current = new StringBuilder();
    List<String> out = new ArrayList<>();
    for (String line : sql.split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.startsWith("--") || trimmed.isEmpty()) {
        continue;
      }
      current.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        addStatement(out, current, database);
      }
    }
    addStatement(out, current, database);
    return List.copyOf(out);
  }

  private static void addStatement(List<String> out, StringBuilder current, String database) {
    String statement = current.toString().strip();
    current.setLength(0);
    if (statement.endsWith(";")) {
      statement = statement.substring(0, statement.length() - 1).strip();
    }
    if (!statement.isEmpty()) {
      out.add(statement.replace("${database}", database));
    }
  }
}
