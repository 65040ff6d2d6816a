package io.specwatch.ingest.normalise;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Deterministic event ids: lowercase hex SHA-256 (first 32 chars) of host, source, source identity,
 * byte offset and line text, as documented on DecodeEvent.eventId.
 *
 * <p>Hot path (one call per metric line): per thread, the digest state after the fixed part (host,
 * source, source identity) is kept and cloned for each line, so only offset and line text are
 * hashed per call (the JDK's SHA-256 intrinsic is C2-only, and the shipper runs C1: the hashing was
 * a quarter of its CPU); only the 16 bytes that make the 32 hex chars are formatted.
 */
public final class EventIds {

  private static final byte[] SEPARATOR = {0};
  private static final HexFormat HEX = HexFormat.of();
  private static final ThreadLocal<Prefix> PREFIX = new ThreadLocal<>();

  private EventIds() {}

  /** The digest state after host, source and source identity, for the last ones seen. */
  private record Prefix(String host, String source, String sourceIdentity, MessageDigest state) {
    boolean is(String h, String s, String i) {
      return host.equals(h) && source.equals(s) && sourceIdentity.equals(i);
    }
  }

  public static String of(
      String host, String source, String sourceIdentity, long offset, String line) {
    Prefix prefix = PREFIX.get();
    if (prefix == null || !prefix.is(host, source, sourceIdentity)) {
      MessageDigest d = sha256();
      d.update(host.getBytes(StandardCharsets.UTF_8));
      d.update(SEPARATOR);
      d.update(source.getBytes(StandardCharsets.UTF_8));
      d.update(SEPARATOR);
      d.update(sourceIdentity.getBytes(StandardCharsets.UTF_8));
      d.update(SEPARATOR);
      prefix = new Prefix(host, source, sourceIdentity, d);
      PREFIX.set(prefix);
    }
    MessageDigest d = copy(prefix.state());
    d.update(Long.toString(offset).getBytes(StandardCharsets.US_ASCII));
    d.update(SEPARATOR);
    d.update(line.getBytes(StandardCharsets.UTF_8));
    return HEX.formatHex(d.digest(), 0, 16);
  }

  private static MessageDigest copy(MessageDigest state) {
    try {
      return (MessageDigest) state.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("the SHA-256 digest of this JVM cannot be cloned", e);
    }
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
