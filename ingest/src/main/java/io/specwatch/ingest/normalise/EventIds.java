package io.specwatch.ingest.normalise;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Deterministic event ids: lowercase hex SHA-256 (first 32 chars) of host, source, source identity,
 * byte offset and line text, as documented on DecodeEvent.eventId.
 */
public final class EventIds {

  private EventIds() {}

  public static String of(
      String host, String source, String sourceIdentity, long offset, String line) {
    String material =
        String.join("\u0000", host, source, sourceIdentity, Long.toString(offset), line);
    return sha256Hex(material.getBytes(StandardCharsets.UTF_8)).substring(0, 32);
  }

  static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
