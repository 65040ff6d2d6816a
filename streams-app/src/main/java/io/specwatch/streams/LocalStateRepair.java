package io.specwatch.streams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the local state of tasks that a crash (kill -9, OOM kill, node loss) left behind, before
 * Kafka Streams starts; their stores are then restored from their changelogs.
 *
 * <ul>
 *   <li>Under exactly-once, a task directory without a {@code .checkpoint} file: Streams deletes
 *       the checkpoint while a task runs and writes it on a clean close, so its absence means an
 *       unclean stop. Streams itself wipes such a task ("did not find checkpoint offsets while
 *       stores are not empty ... treat it as a task corruption error"), but only after {@code
 *       KafkaStreams.start()} has opened every store of it (startup task registration, Kafka 4.x).
 *   <li>Under any guarantee, a task with a RocksDB directory that cannot be opened: a window
 *       segment that was being created or dropped when the process died ({@code CURRENT} missing,
 *       or naming a {@code MANIFEST} that is gone). Opening it makes {@code KafkaStreams.start()}
 *       throw, and the app could not start again until someone deleted it by hand (ScaleOutIT saw
 *       this after a kill -9).
 * </ul>
 *
 * <p>Runs under the state directory's own lock file, the one Kafka Streams takes for the
 * application: when another live instance holds it, nothing is touched and the start fails naming
 * the directory.
 */
final class LocalStateRepair {
  private static final Logger LOG = LoggerFactory.getLogger(LocalStateRepair.class);
  private static final Pattern TASK_DIR = Pattern.compile("\\d+_\\d+");
  static final String CHECKPOINT = ".checkpoint";
  static final String LOCK = ".lock";

  private LocalStateRepair() {}

  /**
   * Removes the crashed task directories of {@code applicationId} under {@code stateDir}.
   *
   * @return the task ids whose local state was removed
   * @throws IllegalStateException when another process holds the application's state lock
   */
  static List<String> repair(Path stateDir, String applicationId, boolean exactlyOnce) {
    Path appDir = stateDir.resolve(applicationId);
    if (!Files.isDirectory(appDir)) {
      return List.of();
    }
    try (FileChannel channel =
        FileChannel.open(
            appDir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        throw new IllegalStateException(
            "state-dir "
                + appDir
                + " is locked by another running instance of "
                + applicationId
                + ": give each instance its own state-dir");
      }
      try {
        return repairLocked(appDir, exactlyOnce);
      } finally {
        lock.release();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check the local state in " + appDir, e);
    }
  }

  private static List<String> repairLocked(Path appDir, boolean exactlyOnce) throws IOException {
    List<String> removed = new ArrayList<>();
    List<Path> tasks;
    try (Stream<Path> s = Files.list(appDir)) {
      tasks =
          s.filter(Files::isDirectory)
              .filter(p -> TASK_DIR.matcher(p.getFileName().toString()).matches())
              .sorted()
              .toList();
    }
    for (Path task : tasks) {
      String reason = null;
      if (exactlyOnce && !Files.exists(task.resolve(CHECKPOINT))) {
        reason = "no checkpoint: the last stop was not clean and exactly-once cannot trust it";
      } else {
        Path broken = firstBrokenRocksDb(task);
        if (broken != null) {
          reason = "RocksDB directory " + task.relativize(broken) + " cannot be opened";
        }
      }
      if (reason != null && hasStoreData(task)) {
        LOG.warn(
            "task {}: {}; removing its local state, the stores are restored from the changelogs",
            task.getFileName(),
            reason);
        Utils.delete(task.toFile());
        removed.add(task.getFileName().toString());
      }
    }
    return removed;
  }

  /** Some file besides Kafka Streams' own lock: a task directory with nothing in it is kept. */
  private static boolean hasStoreData(Path task) throws IOException {
    try (Stream<Path> s = Files.list(task)) {
      return s.anyMatch(p -> !p.getFileName().toString().equals(LOCK));
    }
  }

  /**
   * A directory holding RocksDB files (an {@code OPTIONS-*}, {@code MANIFEST-*} or {@code CURRENT}
   * file) whose {@code CURRENT} is missing or names a manifest that does not exist.
   */
  static Path firstBrokenRocksDb(Path task) throws IOException {
    List<Path> dirs;
    try (Stream<Path> s = Files.walk(task)) {
      dirs = s.filter(Files::isDirectory).sorted().toList();
    }
    for (Path dir : dirs) {
      boolean rocksDbFiles;
      try (Stream<Path> s = Files.list(dir)) {
        rocksDbFiles =
            s.map(p -> p.getFileName().toString())
                .anyMatch(
                    n ->
                        n.equals("CURRENT")
                            || n.startsWith("MANIFEST-")
                            || n.startsWith("OPTIONS-"));
      }
      if (!rocksDbFiles) {
        continue;
      }
      Path current = dir.resolve("CURRENT");
      if (!Files.isRegularFile(current)) {
        return dir;
      }
      String manifest = Files.readString(current, StandardCharsets.UTF_8).trim();
      if (manifest.isEmpty() || !Files.isRegularFile(dir.resolve(manifest))) {
        return dir;
      }
    }
    return null;
  }
}
