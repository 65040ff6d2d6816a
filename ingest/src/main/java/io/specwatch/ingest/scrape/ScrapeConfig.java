package io.specwatch.ingest.scrape;

import io.specwatch.ingest.ship.ShipConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Validated settings of the scrape loop.
 *
 * @param urls /metrics endpoints, scraped in order every interval
 * @param interval spacing of scrape rounds
 * @param engine which metric names to interpret
 * @param ship Kafka/registry/topic/deployment/host settings shared with {@code ship}
 * @param maxScrapes stop after this many rounds (0 = unlimited)
 * @param exitWhenIdle stop after a round, past the priming one, in which no spec counter advanced
 * @param shutdownTimeout how long SIGTERM waits for the current round to be acknowledged
 */
public record ScrapeConfig(
    List<URI> urls,
    Duration interval,
    ScrapeEngine engine,
    ShipConfig ship,
    long maxScrapes,
    boolean exitWhenIdle,
    Duration shutdownTimeout) {

  public ScrapeConfig {
    if (urls == null || urls.isEmpty()) {
      throw new IllegalArgumentException("setting 'url' (SPECWATCH_SCRAPE_URLS) is required");
    }
    urls = List.copyOf(urls);
    for (URI u : urls) {
      if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
        throw new IllegalArgumentException("setting 'url' must be http(s), was '" + u + "'");
      }
    }
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("setting 'interval' must be positive, was " + interval);
    }
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(ship, "ship");
    if (maxScrapes < 0) {
      throw new IllegalArgumentException("setting 'max-scrapes' must be >= 0");
    }
    if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "setting 'shutdown-timeout' (SPECWATCH_SHUTDOWN_TIMEOUT) must be >= 0, was "
              + shutdownTimeout);
    }
  }

  /** Parses {@code 500ms}, {@code 10s}, {@code 2m} or an ISO-8601 duration such as PT10S. */
  public static Duration parseInterval(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.endsWith("s") && !t.startsWith("p")) {
        return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
      }
      if (t.endsWith("m") && !t.startsWith("p")) {
        return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
      }
      return Duration.parse(text.strip());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "setting 'interval' (SPECWATCH_SCRAPE_INTERVAL) must look like 10s, 500ms, 1m or PT10S,"
              + " was '"
              + text
              + "'",
          e);
    }
  }
}
