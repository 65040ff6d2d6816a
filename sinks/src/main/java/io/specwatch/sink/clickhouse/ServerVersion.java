package io.specwatch.sink.clickhouse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A ClickHouse server version as {@code SELECT version()} reports it, e.g. {@code 24.8.4.13}. */
public record ServerVersion(int major, int minor, String text)
    implements Comparable<ServerVersion> {

  private static final Pattern LEADING = Pattern.compile("(\\d+)\\.(\\d+).*");

  /** Parses {@code 18.16.1}, {@code 24.8.4.13}, {@code 26.7.2.1}; fails naming the text. */
  public static ServerVersion parse(String text) {
    String t = text == null ? "" : text.strip();
    Matcher m = LEADING.matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a ClickHouse version: '" + text + "'");
    }
    return new ServerVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), t);
  }

  /** True when this version is at least {@code major.minor}. */
  public boolean atLeast(int otherMajor, int otherMinor) {
    return major > otherMajor || (major == otherMajor && minor >= otherMinor);
  }

  @Override
  public int compareTo(ServerVersion o) {
    return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
  }

  @Override
  public String toString() {
    return text;
  }
}
