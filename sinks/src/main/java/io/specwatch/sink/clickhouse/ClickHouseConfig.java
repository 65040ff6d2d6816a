package io.specwatch.sink.clickhouse;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where ClickHouse is: HTTP base URL (e.g. {@code http://127.0.0.1:18123}), credentials and the
 * database the sink owns. Validated on construction; messages name the setting.
 */
public record ClickHouseConfig(URI url, String user, String password, String database) {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  public static final String DEFAULT_DATABASE = "specwatch";

  public ClickHouseConfig {
    Objects.requireNonNull(url, "--clickhouse-url (SPECWATCH_CLICKHOUSE_URL) is required");
    String scheme = url.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme)) {
      throw new IllegalArgumentException(
          "--clickhouse-url must be an http(s) URL of the HTTP interface, got: " + url);
    }
    if (url.getHost() == null || url.getPort() == 0) {
      throw new IllegalArgumentException("--clickhouse-url has no host: " + url);
    }
    if (user == null || user.isBlank()) {
      throw new IllegalArgumentException("--clickhouse-user must not be blank");
    }
    password = password == null ? "" : password;
    if (database == null || !IDENTIFIER.matcher(database).matches()) {
      throw new IllegalArgumentException(
          "--database must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*), got: " + database);
    }
  }

  /** Parses the URL string, failing with the setting's name. */
  public static ClickHouseConfig of(String url, String user, String password, String database) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("--clickhouse-url (SPECWATCH_CLICKHOUSE_URL) is required");
    }
    URI uri;
    try {
      uri = URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--clickhouse-url is not a URL: " + url, e);
    }
    return new ClickHouseConfig(uri, user, password, database);
  }

  /** The endpoint without a trailing slash, as client-v2 wants it. */
  public String endpoint() {
    int port = url.getPort() > 0 ? url.getPort() : ("https".equals(url.getScheme()) ? 8443 : 8123);
    return url.getScheme() + "://" + url.getHost() + ":" + port;
  }

  /** Same settings with another database (tests use one database each). */
  public ClickHouseConfig withDatabase(String otherDatabase) {
    return new ClickHouseConfig(url, user, password, otherDatabase);
  }

  @Override
  public String toString() {
    return "ClickHouseConfig[url="
        + io.specwatch.runtime.Secrets.maskText(url.toString())
        + ", user="
        + user
        + ", password="
        + (password.isEmpty() ? "" : io.specwatch.runtime.Secrets.HIDDEN)
        + ", database="
        + database
        + "]";
  }
}
