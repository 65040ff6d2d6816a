package io.specwatch.ingest.tail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON file per source in a directory, named by a hash of the source path. Writes are atomic:
 * temp file, fsync, ATOMIC_MOVE over the old file, fsync of the directory. A file that cannot be
 * read as a checkpoint (corrupt, foreign, other version) is moved aside to {@code *.corrupt} with a
 * WARN and treated as absent: the source is read again from offset 0, so lines may be shipped twice
 * (with the same event ids) but none is lost.
 */
public final class CheckpointStore {

  static final int VERSION = 1;
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;

  public CheckpointStore(Path dir) {
    this.dir = dir;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("checkpoint-dir: cannot create '" + dir + "'", e);
    }
    if (!Files.isWritable(dir)) {
      throw new IllegalArgumentException("checkpoint-dir: '" + dir + "' is not writable");
    }
  }

  /** The checkpoint file of a source. */
  public Path fileOf(String source) {
    return dir.resolve(FileIdentity.sha16(source) + ".json");
  }

  /** The stored checkpoint of source, empty when none (or it was corrupt and moved aside). */
  public Optional<Checkpoint> load(String source) {
    Path file = fileOf(source);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      JsonNode n = JSON.readTree(Files.readAllBytes(file));
      if (n == null || n.path("version").asInt() != VERSION) {
        throw new IOException(
            "unknown checkpoint version " + (n == null ? null : n.get("version")));
      }
      String stored = requireText(n, "source");
      if (!stored.equals(source)) {
        throw new IOException("checkpoint of '" + stored + "', expected '" + source + "'");
      }
      return Optional.of(
          new Checkpoint(
              stored,
              new FileIdentity(requireText(n, "fileKey"), requireText(n, "fingerprint")),
              requireLong(n, "offset"),
              requireLong(n, "lineNumber")));
    } catch (IOException | RuntimeException e) {
      Path aside = file.resolveSibling(file.getFileName() + ".corrupt");
      LOG.warn(
          "checkpoint file={} source={} is unreadable ({}); moved to {}, reading the source from"
              + " offset 0",
          file,
          source,
          e.toString(),
          aside);
      try {
        Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException moveFailure) {
        throw new UncheckedIOException("cannot move corrupt checkpoint " + file, moveFailure);
      }
      return Optional.empty();
    }
  }

  /** Atomically replaces the checkpoint of {@code cp.source()}. */
  public void save(Checkpoint cp) {
    ObjectNode n = JSON.createObjectNode();
    n.put("version", VERSION);
    n.put("source", cp.source());
    n.put("fileKey", cp.identity().fileKey());
    n.put("fingerprint", cp.identity().fingerprint());
    n.put("offset", cp.offset());
    n.put("lineNumber", cp.lineNumber());
    Path target = fileOf(cp.source());
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try {
      byte[] bytes = JSON.writeValueAsBytes(n);
      try (FileChannel ch =
          FileChannel.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      fsyncDir();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint " + target, e);
    }
  }

  private void fsyncDir() {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // some platforms cannot open a directory; the rename itself is still atomic
      LOG.debug("checkpoint dir={} fsync unsupported: {}", dir, e.toString());
    }
  }

  private static String requireText(JsonNode n, String field) throws IOException {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual() || v.asText().isEmpty()) {
      throw new IOException("field '" + field + "' missing or not text");
    }
    return v.asText();
  }

  private static long requireLong(JsonNode n, String field) throws IOException {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < 0) {
      throw new IOException("field '" + field + "' missing or not a non-negative integer");
    }
    return v.asLong();
  }
}
