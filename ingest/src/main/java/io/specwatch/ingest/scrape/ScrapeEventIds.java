package io.specwatch.ingest.scrape;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Event ids of scraped intervals: lowercase hex SHA-256 (first 32 chars) of URL, series group (the
 * engine label set) and scrape timestamp in ms. A producer retry resends the same id; a new scrape
 * is a new observation with a new id.
 */
public final class ScrapeEventIds {

  private ScrapeEventIds() {}

  public static String of(String url, String group, long scrapeTimeMs) {
    String material = String.join("\u0000", url, group, Long.toString(scrapeTimeMs));
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(material.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
