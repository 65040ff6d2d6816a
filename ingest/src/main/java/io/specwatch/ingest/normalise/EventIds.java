package io.specwatch.ingest.normalise;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Deterministic event ids: lowercase hex SHA-256 (first 32 chars) of host, source, source identity,
 * byte offset and line text, as documented on DecodeEvent.eventId.
 *
 * <p>Hot path (one call per metric line): one {@link MessageDigest} per thread, fed field by field
 * instead of a joined copy of the material; only the 16 bytes that make the 32 hex chars are
 * formatted.
 */
public final class EventIds {

  private static final byte[] SEPARATOR = {0};
  private static final HexFormat HEX = HexFormat.of();
  private static final ThreadLocal<MessageDigest> DIGEST =
      ThreadLocal.withInitial(EventIds::sha256);

  private EventIds() {}

  public static String of(
      String host, String source, String sourceIdentity, long offset, String line) {
    MessageDigest d = DIGEST.get();
    d.reset();
    d.update(host.getBytes(StandardCharsets.UTF_8));
    d.update(SEPARATOR);
    d.update(source.getBytes(StandardCharsets.UTF_8));
    d.update(SEPARATOR);
    d.update(sourceIdentity.getBytes(StandardCharsets.UTF_8));
    d.update(SEPARATOR);
    d.update(Long.toString(offset).getBytes(StandardCharsets.US_ASCII));
    d.update(SEPARATOR);
    d.update(line.getBytes(StandardCharsets.UTF_8));
    return HEX.formatHex(d.digest(), 0, 16);
  }

  static String sha256Hex(byte[] bytes) {
    return HEX.formatHex(sha256().digest(bytes));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
