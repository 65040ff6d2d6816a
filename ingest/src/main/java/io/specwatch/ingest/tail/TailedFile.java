package io.specwatch.ingest.tail;

import io.specwatch.ingest.ship.SourceLine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one path across rotations. Reads complete lines from the open file (a partial last line
 * waits for its newline), keeping the byte offset of the next unread line. When the open file is at
 * EOF it checks the path:
 *
 * <ul>
 *   <li>rename-and-create: the path names another file key. The old file is read to EOF once more
 *       (lines written before the rename), a final unterminated line of it is emitted as a line,
 *       and then {@link #rotationPending()} is true until the caller {@link #switchFile()}es.
 *   <li>copytruncate: same file key but the file is shorter than the read position or its head
 *       fingerprint changed. Unread bytes of the old content are gone (truncated).
 * </ul>
 *
 * Not thread-safe: one reader thread.
 */
final class TailedFile implements AutoCloseable {

  /** A line read plus the offset just past its terminator. */
  record ReadLine(SourceLine line, long endOffset) {}

  /** Why the next file is read. */
  enum Rotation {
    NONE,
    RENAMED,
    TRUNCATED
  }

  private static final Logger LOG = LoggerFactory.getLogger(TailedFile.class);
  private static final int CHUNK = 64 * 1024;

  private final Path path;
  private final String source;
  private final int maxLineBytes;
  private FileChannel channel;
  private FileIdentity identity;
  private long readPos;
  private long lineNumber;
  private Rotation rotation = Rotation.NONE;
  private final ByteBuffer buf = ByteBuffer.allocate(CHUNK);

  TailedFile(Path path) {
    this(path, SourceLine.DEFAULT_MAX_LINE_BYTES);
  }

  /**
   * @param maxLineBytes bytes kept of one line; a longer line is cut (and dead-lettered)
   */
  TailedFile(Path path, int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("max line bytes must be >= 1, was " + maxLineBytes);
    }
    this.path = path;
    this.source = path.toAbsolutePath().normalize().toString();
    this.maxLineBytes = maxLineBytes;
  }

  String source() {
    return source;
  }

  Path path() {
    return path;
  }

  /** Identity of the open file, null before the path's first line is complete. */
  FileIdentity identity() {
    return identity;
  }

  /** Bytes of the open file after the read position (0 when closed or unknown). */
  long bytesBehind() {
    try {
      return channel == null ? 0 : Math.max(0, channel.size() - readPos);
    } catch (IOException e) {
      return 0;
    }
  }

  long readPos() {
    return readPos;
  }

  long lineNumber() {
    return lineNumber;
  }

  boolean isOpen() {
    return channel != null;
  }

  Rotation rotationPending() {
    return rotation;
  }

  /**
   * Opens the path's file at offset 0, or resumes the checkpointed file: at the path when its
   * identity matches, else at a sibling with that identity (renamed while we were down).
   *
   * @return true when a file is open
   */
  boolean open(Optional<Checkpoint> checkpoint) throws IOException {
    if (checkpoint.isPresent()) {
      Checkpoint cp = checkpoint.get();
      Optional<FileIdentity> now = FileIdentity.of(path);
      if (now.isPresent() && now.get().equals(cp.identity())) {
        if (Files.size(path) >= cp.offset()) {
          return openAt(path, cp.identity(), cp.offset(), cp.lineNumber());
        }
        LOG.warn("source={} is shorter than its checkpoint: truncated while stopped", source);
      } else {
        Optional<Path> moved = findSibling(cp.identity());
        if (moved.isPresent()) {
          LOG.info(
              "source={} resumes renamed file={} at offset={}", source, moved.get(), cp.offset());
          return openAt(moved.get(), cp.identity(), cp.offset(), cp.lineNumber());
        }
        LOG.warn(
            "source={} checkpointed file {} is gone; lines after offset {} of it are lost",
            source,
            cp.identity(),
            cp.offset());
      }
    }
    return openNew();
  }

  /** Opens the path's current file at offset 0 once its identity exists. */
  boolean openNew() throws IOException {
    Optional<FileIdentity> now = FileIdentity.of(path);
    return now.isPresent() && openAt(path, now.get(), 0, 0);
  }

  private boolean openAt(Path file, FileIdentity id, long offset, long lines) throws IOException {
    FileChannel ch;
    try {
      ch = FileChannel.open(file, StandardOpenOption.READ);
    } catch (java.nio.file.NoSuchFileException e) {
      return false;
    }
    // the file may have been replaced between stat and open
    Optional<String> key = FileIdentity.fileKey(file);
    Optional<String> fp = FileIdentity.fingerprint(ch);
    if (key.isEmpty()
        || !key.get().equals(id.fileKey())
        || !fp.equals(Optional.of(id.fingerprint()))) {
      ch.close();
      return false;
    }
    closeChannel();
    channel = ch;
    identity = id;
    readPos = offset;
    lineNumber = lines;
    rotation = Rotation.NONE;
    return true;
  }

  /** Closes the current file and opens the path's new one at 0 (after a rotation). */
  boolean switchFile() throws IOException {
    closeChannel();
    identity = null;
    rotation = Rotation.NONE;
    return openNew();
  }

  /**
   * Up to max complete lines from the open file; when it is at EOF, checks for rotation. Returns an
   * empty list when nothing new is complete.
   */
  List<ReadLine> poll(int max) throws IOException {
    List<ReadLine> out = new ArrayList<>();
    if (channel == null || rotation != Rotation.NONE || max <= 0) {
      return out;
    }
    // copytruncate is checked before reading: a truncated file refilled past the read position
    // must not be read from the middle of its new content
    if (truncated()) {
      rotation = Rotation.TRUNCATED;
      LOG.info("source={} truncated in place (copytruncate) at offset={}", source, readPos);
      return out;
    }
    boolean eof = readLines(out, max, false);
    if (!eof) {
      return out;
    }
    Optional<String> key = FileIdentity.fileKey(path);
    if (key.isPresent() && !key.get().equals(identity.fileKey())) {
      // renamed away and a new file created: the old one is final; read what the writer wrote
      // before the rename, including an unterminated last line
      if (readLines(out, max, true)) {
        rotation = Rotation.RENAMED;
        LOG.info("source={} rotated by rename at offset={}", source, readPos);
      }
    }
    return out;
  }

  private boolean truncated() throws IOException {
    if (channel.size() < readPos) {
      return true;
    }
    Optional<String> fp = FileIdentity.fingerprint(channel);
    return !fp.equals(Optional.of(identity.fingerprint()));
  }

  /**
   * Reads lines from readPos. Returns true when EOF was reached (no more complete lines). When
   * final, an unterminated tail is emitted as a line. Of a line longer than maxLineBytes only the
   * head is kept (memory stays bounded); the line is marked truncated.
   */
  private boolean readLines(List<ReadLine> out, int max, boolean fin) throws IOException {
    ByteArrayOutputStream partial = new ByteArrayOutputStream();
    long pos = readPos;
    long lineStart = readPos;
    while (out.size() < max) {
      buf.clear();
      int n = channel.read(buf, pos);
      if (n <= 0) {
        if (fin && pos > lineStart) {
          emit(out, partial.toByteArray(), lineStart, pos, pos - lineStart);
        }
        return true;
      }
      byte[] a = buf.array();
      int from = 0;
      for (int i = 0; i < n && out.size() < max; i++) {
        if (a[i] == '\n') {
          keep(partial, a, from, i - from);
          emit(out, partial.toByteArray(), lineStart, pos + i + 1, pos + i - lineStart);
          partial.reset();
          from = i + 1;
          lineStart = pos + i + 1;
        }
      }
      if (out.size() >= max) {
        return false;
      }
      keep(partial, a, from, n - from);
      pos += n;
    }
    return false;
  }

  /** Appends to the line's head, up to maxLineBytes. */
  private void keep(ByteArrayOutputStream partial, byte[] a, int from, int n) {
    int take = Math.min(n, maxLineBytes - partial.size());
    if (take > 0) {
      partial.write(a, from, take);
    }
  }

  private void emit(List<ReadLine> out, byte[] kept, long start, long end, long length) {
    lineNumber++;
    readPos = end;
    out.add(new ReadLine(SourceLine.of(lineNumber, start, kept, length), end));
  }

  private Optional<Path> findSibling(FileIdentity wanted) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        Optional<String> key = FileIdentity.fileKey(f);
        if (key.isPresent() && key.get().equals(wanted.fileKey())) {
          Optional<FileIdentity> id = FileIdentity.of(f);
          if (id.isPresent() && id.get().equals(wanted)) {
            return Optional.of(f);
          }
        }
      }
    }
    return Optional.empty();
  }

  private void closeChannel() throws IOException {
    if (channel != null) {
      channel.close();
      channel = null;
    }
  }

  @Override
  public void close() throws IOException {
    closeChannel();
  }
}
