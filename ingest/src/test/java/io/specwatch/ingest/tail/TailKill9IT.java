package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.testkit.SpecwatchContainers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 3: {@code kill -9} of a separate shipper process in the middle of a file while the writer
 * keeps appending, then a restart: zero lost lines by event id, duplicates only as re-sends of
 * lines after the checkpoint the killed process left (the restart resumed there, not at 0).
 */
class TailKill9IT {

  private static final String HOST = "gpu-kill9";
  private static final String DEPLOYMENT = "dep-kill9";

  /** Linux reports a process killed by signal N as exit code 128 + N. */
  private static final int SIGKILL_EXIT = 128 + 9;

  @TempDir Path dir;
  private final ExecutorService pool = Executors.newSingleThreadExecutor();
  private final AtomicBoolean stopWriting = new AtomicBoolean();

  @AfterEach
  void stopThreads() throws InterruptedException {
    stopWriting.set(true);
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  @Test
  void killDash9MidFileAndRestartLosesNoLine() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.kill9.decode-events");
    String dlq = SpecwatchContainers.uniqueName("it.kill9.dead-letter");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(List.of(new NewTopic(topic, 1, (short) 1), new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
    }
    Files.createDirectories(dir.resolve("logs"));
    MetricLog log = new MetricLog(dir.resolve("logs/a.log"), HOST).header("A");
    for (int i = 0; i < 30; i++) {
      log.metrics(1000); // ~6 MB: the shipper needs well over a second for it
    }
    long initialSize = log.offset();
    Path checkpoints = dir.resolve("checkpoints");
    CheckpointStore store = new CheckpointStore(checkpoints);
    List<String> args =
        new ArrayList<>(
            List.of(
                "--glob", dir.resolve("logs") + "/*.log",
                "--deployment", DEPLOYMENT,
                "--host", HOST,
                "--checkpoint-dir", checkpoints.toString(),
                "--bootstrap", bootstrap,
                "--registry-url", registry,
                "--topic", topic,
                "--dlq-topic", dlq,
                "--poll-interval", "20ms",
                "--max-in-flight-lines", "2000"));
    pool.submit(
        () -> {
          while (!stopWriting.get()) {
            log.metrics(20); // the engine keeps logging through the kill and the restart
            Thread.sleep(20);
          }
          return null;
        });

    long killedAt;
    try (ShipperProcess first = ShipperProcess.startTail(args, dir.resolve("tail-1.out"))) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> checkpoint(store, log) > initialSize / 4 || !first.process.isAlive());
      assertThat(first.process.isAlive()).as("output:\n%s", first.output()).isTrue();
      first.process.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no final checkpoint
      assertThat(first.awaitExit(Duration.ofSeconds(10))).isEqualTo(SIGKILL_EXIT);
      killedAt = checkpoint(store, log);
    }
    assertThat(killedAt).as("killed in the middle of the file").isLessThan(initialSize);
    stopWriting.set(true);
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    log.metrics(100);

    args.add("--exit-when-idle");
    try (ShipperProcess second = ShipperProcess.startTail(args, dir.resolve("tail-2.out"))) {
      assertThat(second.awaitExit(Duration.ofSeconds(90)))
          .as("output:\n%s", second.output())
          .isZero();
      assertThat(second.output()).contains("from offset=" + killedAt);
    }
    assertThat(checkpoint(store, log)).isEqualTo(log.offset());

    Map<String, MetricLog.Expected> expected = log.expected();
    List<EventTopic.Read> got =
        EventTopic.readUntilAll(
            bootstrap, registry, topic, expected.keySet(), Duration.ofSeconds(60), () -> null);
    EventTopic.assertExactlyTheLines(got, expected);
    // re-sent lines all lie after the checkpoint the killed process left
    Set<String> ids = new HashSet<>();
    for (EventTopic.Read r : got) {
      String id = r.event().getEventId();
      if (!ids.add(id)) {
        assertThat(expected.get(id).endOffset()).isGreaterThan(killedAt);
      }
    }
  }

  private static long checkpoint(CheckpointStore store, MetricLog log) {
    return store.load(log.source).map(Checkpoint::offset).orElse(0L);
  }
}
