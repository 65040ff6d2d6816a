package io.specwatch.ingest.tail;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.context.ContextFields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the logs revealed about run contexts, kept in the checkpoint dir ({@value #FILE}) so that a
 * restarted tail, which resumes after the lines that revealed it, still knows the context. Written
 * atomically like the checkpoints (temp file, fsync, ATOMIC_MOVE). A file that cannot be read is
 * moved to {@code .corrupt} with a WARN and tail starts without it.
 */
final class RunContextState {

  static final String FILE = "run-context-log-layers.json";

  private static final Logger LOG = LoggerFactory.getLogger(RunContextState.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final TypeReference<Map<String, ContextFields>> TYPE = new TypeReference<>() {};

  private RunContextState() {}

  static Map<String, ContextFields> load(Path dir) {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      return Map.of();
    }
    try {
      Map<String, ContextFields> layers = JSON.readValue(file.toFile(), TYPE);
      return layers == null ? Map.of() : layers;
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "run-context state file={} cannot be read, starting without it: {}", file, e.toString());
      try {
        Files.move(
            file, file.resolveSibling(FILE + ".corrupt"), StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException moveFailed) {
        LOG.warn("cannot move file={} aside: {}", file, moveFailed.toString());
      }
      return Map.of();
    }
  }

  static void save(Path dir, Map<String, ContextFields> layers) {
    Path target = dir.resolve(FILE);
    Path tmp = dir.resolve(FILE + ".tmp");
    try {
      Files.createDirectories(dir);
      byte[] bytes = JSON.writeValueAsBytes(layers);
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
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write run-context state " + target, e);
    }
  }
}
