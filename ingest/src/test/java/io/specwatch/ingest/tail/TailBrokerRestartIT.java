package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.DockerClient;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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
import org.testcontainers.kafka.KafkaContainer;

/**
 * Issue 3: the broker is really stopped ({@code docker stop}, the broker process exits) for ~18 s
 * while {@code tail} ships a growing file from its own JVM, then started again on the same address
 * (a fixed host port, the container keeps its data). Zero lost lines by event id, duplicates only
 * as re-sends, the checkpoint never ahead of the broker's acknowledgements, and the shipper
 * survives and is ready again.
 *
 * <p>"Checkpoint only after acks" is checked with the broker's own clock: the topic uses {@code
 * LogAppendTime}, a sampler records (time, checkpoint offset) pairs, and every line a sample's
 * checkpoint covers must have been appended to the log before that sample was taken.
 */
class TailBrokerRestartIT {

  private static final String HOST = "gpu-restart";
  private static final String DEPLOYMENT = "dep-broker-restart";
  private static final Duration DOWN = Duration.ofSeconds(12);

  /** Longer than the shipper's max.block.ms (5 s) plus a loop pass. */
  private static final Duration SETTLE = Duration.ofSeconds(6);

  /** The checkpoint offset read at a time (ms, read after the checkpoint file). */
  private record Sample(long atMs, long offset) {}

  @TempDir Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final AtomicBoolean stopWriting = new AtomicBoolean();
  private final AtomicBoolean stopSampling = new AtomicBoolean();

  @AfterEach
  void stopThreads() throws InterruptedException {
    stopWriting.set(true);
    stopSampling.set(true);
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  @Test
  void brokerStoppedAndRestartedWhileTailingLosesNoLine() throws Exception {
    String registry = SpecwatchContainers.registryUrl(); // also fails clearly without Docker
    int kafkaPort = TestPorts.freePort();
    KafkaContainer kafka = SpecwatchContainers.newKafkaContainer();
    // a fixed host port: the restarted container is advertised at the same address
    kafka.setPortBindings(List.of(kafkaPort + ":9092"));
    kafka.start();
    try (kafka) {
      String bootstrap = kafka.getBootstrapServers();
      assertThat(bootstrap).endsWith(":" + kafkaPort);
      String topic = SpecwatchContainers.uniqueName("it.restart.decode-events");
      String dlq = SpecwatchContainers.uniqueName("it.restart.dead-letter");
      try (Admin admin =
          Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
        admin
            .createTopics(
                List.of(
                    new NewTopic(topic, 1, (short) 1)
                        .configs(Map.of("message.timestamp.type", "LogAppendTime")),
                    new NewTopic(dlq, 1, (short) 1)))
            .all()
            .get();
      }
      Files.createDirectories(dir.resolve("logs"));
      MetricLog log = new MetricLog(dir.resolve("logs/a.log"), HOST).header("A");
      log.metrics(100);
      Path checkpoints = dir.resolve("checkpoints");
      CheckpointStore store = new CheckpointStore(checkpoints);

      List<Sample> samples = new CopyOnWriteArrayList<>();
      pool.submit(
          () -> {
            while (!stopSampling.get()) {
              long offset = store.load(log.source).map(Checkpoint::offset).orElse(0L);
              samples.add(new Sample(System.currentTimeMillis(), offset));
              Thread.sleep(25);
            }
            return null;
          });
      pool.submit(
          () -> {
            while (!stopWriting.get()) {
              log.metrics(5); // ~100 lines/s, before, during and after the outage
              Thread.sleep(50);
            }
            return null;
          });

      try (ShipperProcess shipper =
          ShipperProcess.startTail(
              List.of(
                  "--glob",
                  dir.resolve("logs") + "/*.log",
                  "--deployment",
                  DEPLOYMENT,
                  "--host",
                  HOST,
                  "--checkpoint-dir",
                  checkpoints.toString(),
                  "--bootstrap",
                  bootstrap,
                  "--registry-url",
                  registry,
                  "--topic",
                  topic,
                  "--dlq-topic",
                  dlq,
                  "--poll-interval",
                  "50ms",
                  "--max-in-flight-lines",
                  "300",
                  "--shutdown-timeout",
                  "10s",
                  "-K",
                  "linger.ms=5"),
              dir.resolve("tail.out"))) {
        long firstBatch = log.offset();
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> checkpoint(store, log) >= firstBatch || !shipper.process.isAlive());
        assertThat(shipper.process.isAlive()).as("shipper output:\n%s", shipper.output()).isTrue();
        assertThat(shipper.health("ready")).isEqualTo(200);

        // the outage: docker stop (SIGTERM, then the broker process exits), not a pause
        DockerClient docker = kafka.getDockerClient();
        docker.stopContainerCmd(kafka.getContainerId()).withTimeout(10).exec();
        assertThat(
                docker.inspectContainerCmd(kafka.getContainerId()).exec().getState().getRunning())
            .isFalse();
        // an acknowledgement that arrived just before the broker exited is checkpointed by the
        // loop's next pass, which a blocked send can delay: the outage's mark is the checkpoint
        // once it holds still
        long downAt = settledCheckpoint(store, log);
        // while lines keep being appended: the shipper stays up and, with no acknowledgement,
        // its checkpoint does not move (checked every 100 ms; a failure says which and shows the
        // shipper's output)
        long downUntil = System.nanoTime() + DOWN.toNanos();
        while (System.nanoTime() < downUntil) {
          assertThat(shipper.process.isAlive())
              .as(() -> "shipper died while Kafka was down; output:\n" + shipper.output())
              .isTrue();
          long now = checkpoint(store, log);
          assertThat(now)
              .as(
                  () ->
                      "checkpoint moved from "
                          + downAt
                          + " while Kafka was down; shipper output:\n"
                          + shipper.output())
              .isEqualTo(downAt);
          Thread.sleep(100);
        }
        assertThat(log.offset()).as("the file grew while Kafka was down").isGreaterThan(downAt);

        docker.startContainerCmd(kafka.getContainerId()).exec();
        try (Admin admin =
            Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
          await()
              .atMost(Duration.ofSeconds(90))
              .ignoreExceptions()
              .until(() -> admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == 1);
        }
        long afterRestart = log.offset();
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> checkpoint(store, log) >= afterRestart || !shipper.process.isAlive());
        stopWriting.set(true);
        long end = log.offset();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> checkpoint(store, log) == end || !shipper.process.isAlive());

        Map<String, MetricLog.Expected> expected = log.expected();
        List<EventTopic.Read> got =
            EventTopic.readUntilAll(
                bootstrap,
                registry,
                topic,
                expected.keySet(),
                Duration.ofSeconds(60),
                shipper::deathNotice);
        stopSampling.set(true);
        EventTopic.assertExactlyTheLines(got, expected);

        // every checkpoint ever observed covers only lines the broker had appended before
        Map<String, Long> firstAppend = new HashMap<>();
        got.forEach(r -> firstAppend.merge(r.event().getEventId(), r.timestamp(), Math::min));
        assertThat(samples).anyMatch(s -> s.offset() == downAt);
        for (Sample s : samples) {
          expected.forEach(
              (id, line) -> {
                if (line.endOffset() <= s.offset()) {
                  assertThat(firstAppend.get(id))
                      .as(
                          "line %d checkpointed at %d before its append",
                          line.lineNumber(), s.atMs())
                      .isLessThanOrEqualTo(s.atMs());
                }
              });
        }

        assertThat(shipper.process.isAlive()).isTrue();
        assertThat(shipper.health("live")).isEqualTo(200);
        assertThat(shipper.health("ready")).isEqualTo(200);
        shipper.process.destroy(); // SIGTERM: clean shutdown, exit 0
        assertThat(shipper.awaitExit(Duration.ofSeconds(30)))
            .as("output:\n%s", shipper.output())
            .isZero();
        assertThat(checkpoint(store, log)).isEqualTo(end);
      }
    }
  }

  /**
   * The checkpoint once it held still for {@link #SETTLE}: at most 40 s. The loop writes
   * checkpoints between sends, and a send can block for max.block.ms (5 s, {@code TailConfig}) when
   * the client has dropped the topic's metadata (Kafka 4 clients rebootstrap when no broker
   * answers), so acknowledgements received just before the broker exited can reach the checkpoint
   * up to that long after {@code docker stop} returned.
   */
  private static long settledCheckpoint(CheckpointStore store, MetricLog log)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
    long before = checkpoint(store, log);
    while (System.nanoTime() < deadline) {
      Thread.sleep(SETTLE.toMillis());
      long now = checkpoint(store, log);
      if (now == before) {
        return now;
      }
      before = now;
    }
    throw new AssertionError("the checkpoint kept moving for 40 s after the broker stopped");
  }

  private static long checkpoint(CheckpointStore store, MetricLog log) {
    return store.load(log.source).map(Checkpoint::offset).orElse(0L);
  }
}
