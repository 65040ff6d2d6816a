package io.specwatch.runtime;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Durations in settings: {@code 500ms}, {@code 30s}, {@code 1m}, {@code 2h}, {@code 1d} or ISO-8601
 * ({@code PT30S}, {@code PT1M}, {@code P1D}), case-insensitive. The apps' duration options use
 * {@link Converter}, so they accept both forms; {@code ingest scrape --interval} is the exception
 * ({@code ScrapeConfig.parseInterval}: {@code ms}, {@code s}, {@code m} or ISO-8601).
 */
public final class Durations {

  static final String FORMS = "use 500ms, 30s, 1m, 2h, 1d or ISO-8601 like PT30S";

  private Durations() {}

  /**
   * The duration of {@code text}.
   *
   * @throws IllegalArgumentException naming the text and the accepted forms
   */
  public static Duration parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("p") || t.startsWith("-p")) {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.length() < 2) {
        throw new IllegalArgumentException("no unit");
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      return switch (t.charAt(t.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        case 'd' -> Duration.ofDays(n);
        default -> throw new IllegalArgumentException("unknown unit");
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("invalid duration '" + text + "': " + FORMS, e);
    }
  }

  /**
   * The duration of {@code text} given for {@code setting} (e.g. {@code "--grace
   * (SPECWATCH_GRACE)"}).
   *
   * @throws IllegalArgumentException whose message starts with the setting
   */
  public static Duration parse(String text, String setting) {
    try {
      return parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(setting + ": " + e.getMessage(), e);
    }
  }

  /**
   * picocli converter; picocli prefixes the message with the option ({@code Invalid value for
   * option '--grace': invalid duration 'soon': ...}), also for values from environment defaults.
   */
  public static final class Converter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
