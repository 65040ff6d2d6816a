package io.specwatch.e2e.faults;

import io.specwatch.ingest.tail.Checkpoint;
import io.specwatch.ingest.tail.CheckpointStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;

/**
 * A fault scenario's files, checkpoints and log, starting on its own day of event time: its
 * directory {@code <tmp>/<name>} holds {@code engine.log} of deployment {@code fault-<name>}, its
 * shipper's checkpoints are in {@code <tmp>/<name>-checkpoints}.
 */
record FaultScenario(String name, Path dir, Path checkpoints, EngineLog log, LocalDateTime start) {

  /** Scenario {@code name}, whose events start {@code day} days after {@code base}. */
  static FaultScenario create(Path tmp, LocalDateTime base, String name, int day)
      throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(name));
    LocalDateTime start = base.plusDays(day);
    String deployment = "fault-" + name;
    EngineLog log =
        new EngineLog(dir.resolve("engine.log"), "gpu-" + deployment, deployment, start);
    return new FaultScenario(name, dir, tmp.resolve(name + "-checkpoints"), log, start);
  }

  /** The shipper's checkpointed offset in the log (0 before its first checkpoint). */
  long checkpoint() {
    return new CheckpointStore(checkpoints).load(log.source()).map(Checkpoint::offset).orElse(0L);
  }

  /** Waits until the shipper's checkpoint is on the log's current generation (and at its end). */
  void awaitOnCurrentGeneration(boolean atEnd) {
    Await.until(
        "shipper on the current generation" + (atEnd ? ", caught up" : ""),
        Duration.ofMinutes(2),
        () -> {
          var cp = new CheckpointStore(checkpoints).load(log.source());
          return cp.isPresent()
              && cp.get().identity().fingerprint().equals(log.fingerprint())
              && (!atEnd || cp.get().offset() >= log.offset());
        },
        20);
  }
}
