package io.specwatch.ingest.tail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Identity of one log file: {@code dev:ino} (the file key, which survives renames) plus a content
 * fingerprint, so a reused inode is not mistaken for the old file. The fingerprint is the same as
 * {@link io.specwatch.ingest.normalise.FileFingerprint}: SHA-256 (16 hex chars) of the first line,
 * at most {@value #HEAD_BYTES} bytes. It exists only once the first line is complete (or the head
 * is full), so it never changes while the file grows.
 *
 * @param fileKey {@code dev:ino} on Unix, the platform file key elsewhere
 * @param fingerprint hash of the first line
 */
public record FileIdentity(String fileKey, String fingerprint) {

  static final int HEAD_BYTES = 1024;

  public FileIdentity {
    Objects.requireNonNull(fileKey, "fileKey");
    Objects.requireNonNull(fingerprint, "fingerprint");
  }

  /** The file key of the file at path (following links), or empty when there is none. */
  static Optional<String> fileKey(Path path) throws IOException {
    try {
      Map<String, Object> unix = Files.readAttributes(path, "unix:dev,ino");
      return Optional.of(unix.get("dev") + ":" + unix.get("ino"));
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
      return Optional.ofNullable(key).map(Object::toString);
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /**
   * Identity of the file at path; empty while the file is missing, not regular, or its first line
   * is not complete yet.
   */
  public static Optional<FileIdentity> of(Path path) throws IOException {
    if (!Files.isRegularFile(path, new LinkOption[0])) {
      return Optional.empty();
    }
    Optional<String> key = fileKey(path);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      return fingerprint(ch).map(fp -> new FileIdentity(key.get(), fp));
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Fingerprint of an open file's head; empty while the first line is incomplete. */
  static Optional<String> fingerprint(FileChannel ch) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(HEAD_BYTES);
    long pos = 0;
    while (head.hasRemaining()) {
      int n = ch.read(head, pos);
      if (n <= 0) {
        break;
      }
      pos += n;
    }
    byte[] bytes = head.array();
    int len = head.position();
    int end = -1;
    for (int i = 0; i < len; i++) {
      if (bytes[i] == '\n') {
        end = i;
        break;
      }
    }
    if (end < 0 && len < HEAD_BYTES) {
      return Optional.empty();
    }
    int lineLen = end < 0 ? len : end;
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(bytes, 0, lineLen);
      return Optional.of(HexFormat.of().formatHex(sha.digest()).substring(0, 16));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /** Short form for logs. */
  @Override
  public String toString() {
    return fileKey + "/" + fingerprint;
  }

  static String sha16(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)))
          .substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
