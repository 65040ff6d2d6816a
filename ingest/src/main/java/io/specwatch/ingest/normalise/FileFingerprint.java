package io.specwatch.ingest.normalise;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Identity of a log file that survives renames and copies: SHA-256 (16 hex chars) of its first
 * line, at most 1024 bytes. Rotation-aware tailing (tail.FileIdentity) uses the same fingerprint.
 */
public final class FileFingerprint {

  static final int MAX_BYTES = 1024;

  private FileFingerprint() {}

  public static String of(Path file) throws IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(MAX_BYTES);
    }
    int end = head.length;
    for (int i = 0; i < head.length; i++) {
      if (head[i] == '\n') {
        end = i;
        break;
      }
    }
    byte[] firstLine = new byte[end];
    System.arraycopy(head, 0, firstLine, 0, end);
    return sha256Hex(firstLine).substring(0, 16);
  }

  private static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
