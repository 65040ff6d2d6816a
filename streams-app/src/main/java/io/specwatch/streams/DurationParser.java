package io.specwatch.streams;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/** Parses {@code 500ms}, {@code 30s}, {@code 1m}, {@code 2h} or ISO-8601 {@code PT1M}. */
public final class DurationParser implements CommandLine.ITypeConverter<Duration> {

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /** The duration of {@code text}; IllegalArgumentException naming the text when invalid. */
  public static Duration parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("pt") || t.startsWith("p")) {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      return switch (t.charAt(t.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        default -> throw new IllegalArgumentException("bad unit");
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "invalid duration '" + text + "': use 500ms, 30s, 1m, 2h or ISO-8601 like PT1M", e);
    }
  }
}
