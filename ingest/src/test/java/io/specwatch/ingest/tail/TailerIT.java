package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipException;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tails files on the real broker and registry while a writer appends, crashes and rotates, then
 * consumes everything back: every written metric line must arrive (zero lost lines), and duplicates
 * may only be re-sends of the same line with the same event id and line number.
 */
class TailerIT {

  private static final String HOST = "gpu-it";
  private static final String DEPLOYMENT = "dep-tail-it";

  @TempDir Path dir;
  private String bootstrap;
  private String registry;
  private String topic;
  private String dlq;
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @BeforeEach
  void topics() throws Exception {
    bootstrap = SpecwatchContainers.kafkaBootstrap();
    registry = SpecwatchContainers.registryUrl();
    topic = SpecwatchContainers.uniqueName("it.tail.decode-events");
    dlq = SpecwatchContainers.uniqueName("it.tail.dead-letter");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(List.of(new NewTopic(topic, 1, (short) 1), new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
    }
  }

  @AfterEach
  void shutdown() {
    pool.shutdownNow();
  }

  private TailConfig config(boolean exitWhenIdle, int maxInFlight) {
    return config(bootstrap, exitWhenIdle, maxInFlight);
  }

  private TailConfig config(String kafka, boolean exitWhenIdle, int maxInFlight) {
    return new TailConfig(
        new ShipConfig(
            kafka,
            registry,
            topic,
            dlq,
            DEPLOYMENT,
            HOST,
            NormaliseConfig.defaults(),
            Map.of("linger.ms", "5")),
        List.of(dir + "/*.log"),
        dir.resolve("checkpoints"),
        Duration.ofMillis(50),
        maxInFlight,
        exitWhenIdle,
        Duration.ofSeconds(exitWhenIdle ? 20 : 2));
  }

  private Future<?> start(Tailer tailer) {
    return pool.submit(tailer);
  }

  private long checkpointOffset(String source) {
    return new CheckpointStore(dir.resolve("checkpoints"))
        .load(source)
        .map(Checkpoint::offset)
        .orElse(-1L);
  }

  @Test
  void crashAndRestartLosesNoLine() throws Exception {
    MetricLog w = new MetricLog(dir.resolve("a.log"), HOST);
    w.header("A");
    w.metrics(50);
    Tailer first = new Tailer(config(false, 64));
    Future<?> run = start(first);
    for (int i = 0; i < 10; i++) {
      w.metrics(30); // appended while tailing
    }
    long half = w.offset() / 2;
    await().atMost(Duration.ofSeconds(30)).until(() -> checkpointOffset(w.source) > half);
    w.metrics(40);
    first.crash(); // kill -9: unsent records dropped, no final checkpoint
    run.get();
    long crashedAt = checkpointOffset(w.source);
    w.metrics(100); // written while the shipper is down

    Tailer second = new Tailer(config(true, 64));
    start(second).get();

    assertThat(crashedAt).isGreaterThan(half); // the restart resumed in the middle of the file
    assertThat(checkpointOffset(w.source)).isEqualTo(w.offset());
    assertNoLostLine(w.lineNumbers());
  }

  /**
   * A run that fails (here: the checkpoint dir is replaced by a regular file, so the next
   * checkpoint cannot be written) reports its exception through {@link Tailer#failure()} by the
   * time {@link Tailer#awaitFinished} returns: the tail command's SIGTERM hook reads it to exit 2,
   * not 0.
   */
  @Test
  void aFailedRunIsReportedBeforeAwaitFinishedReturns() throws Exception {
    MetricLog w = new MetricLog(dir.resolve("a.log"), HOST);
    w.header("A");
    w.metrics(20);
    Tailer tailer = new Tailer(config(false, 64));
    Future<?> run = start(tailer);
    await().atMost(Duration.ofSeconds(30)).until(() -> checkpointOffset(w.source) == w.offset());
    assertThat(tailer.failure()).isNull();
    Path checkpoints = dir.resolve("checkpoints");
    try (var files = Files.list(checkpoints)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(checkpoints);
    Files.writeString(checkpoints, "not a directory");
    w.metrics(5);
    assertThat(tailer.awaitFinished(Duration.ofSeconds(30))).isTrue();
    assertThat(tailer.failure()).isInstanceOf(ShipException.class);
    assertThat(run).failsWithin(Duration.ofSeconds(5));
  }

  /**
   * The run-context state file only holds what lines below the checkpoint revealed: a context read
   * from a line Kafka has not acknowledged is not saved (a restart reads the lines before it again,
   * and they must not be stamped with it), and it is saved once the checkpoint passes the line.
   */
  @Test
  void contextsOfUnacknowledgedLinesAreNotSaved() throws Exception {
    Path log = dir.resolve("ctx.log");
    String decode =
        "[2026-11-30 17:00:01 TP0] Decode batch. #running-req: 4, #token: 1200, token usage: 0.02,"
            + " accept len: 2.00, gen throughput (token/s): 240.00, #queue-req: 0, ";
    Files.write(
        log,
        List.of(
            decode,
            "[2026-11-30 17:00:02] server_args=ServerArgs(model_path='moonshotai/Kimi-K2.5',"
                + " tp_size=8, speculative_algorithm='EAGLE3', speculative_num_steps=2)",
            decode));
    Path checkpoints = dir.resolve("checkpoints");
    int port = TestPorts.freePort(); // closed again: nothing listens there
    Tailer down = new Tailer(config("127.0.0.1:" + port, false, 10));
    Future<?> run = start(down);
    await().atMost(Duration.ofSeconds(20)).until(() -> down.inFlightLines() == 3);
    Thread.sleep(500); // several passes of the loop, each saving what it may
    down.stop();
    run.get();
    assertThat(RunContextState.load(checkpoints)).as("state after Kafka was down").isEmpty();

    start(new Tailer(config(true, 10))).get(); // Kafka is back
    assertThat(checkpointOffset(log.toAbsolutePath().normalize().toString()))
        .isEqualTo(Files.size(log));
    assertThat(RunContextState.load(checkpoints))
        .as("state once the line is acknowledged")
        .containsOnlyKeys(DEPLOYMENT)
        .hasEntrySatisfying(DEPLOYMENT, f -> assertThat(f.numSteps()).isEqualTo(2));
  }

  @Test
  void exitWhenIdleWaitsForLinesThatBackpressureLeftUnread() throws Exception {
    // one line in flight at a time: most passes find no free slot, and the ack that frees it can
    // arrive between that source's turn and the idle check (the exit used to happen then)
    MetricLog w = new MetricLog(dir.resolve("a.log"), HOST);
    w.header("A");
    w.metrics(300);
    start(new Tailer(config(true, 1))).get();
    assertThat(checkpointOffset(w.source)).isEqualTo(w.offset());
    assertNoLostLine(w.lineNumbers());
  }

  @Test
  void kafkaDownStopsReadingAtTheInFlightCapAndLosesNothing() throws Exception {
    MetricLog w = new MetricLog(dir.resolve("a.log"), HOST);
    w.header("A");
    long headerEnd = w.offset();
    w.metrics(120);
    int port = TestPorts.freePort(); // closed again: nothing listens there
    Tailer down = new Tailer(config("127.0.0.1:" + port, false, 10));
    Future<?> run = start(down);
    // the first read takes the header (no record: done at once) and 9 metric lines
    await().atMost(Duration.ofSeconds(20)).until(() -> down.inFlightLines() == 9);
    // backpressure: nothing more is read while nothing is acknowledged, nothing is dropped
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> down.inFlightLines() == 9 && checkpointOffset(w.source) <= headerEnd);
    down.stop(); // SIGTERM while Kafka is down: the in-flight records are abandoned, not lost
    run.get();
    assertThat(checkpointOffset(w.source)).isEqualTo(headerEnd);

    w.metrics(30);
    start(new Tailer(config(true, 10))).get(); // Kafka is back
    assertThat(checkpointOffset(w.source)).isEqualTo(w.offset());
    assertNoLostLine(w.lineNumbers());
  }

  @Test
  void renameAndCreateRotationWhileTailingLosesNoLine() throws Exception {
    MetricLog w = new MetricLog(dir.resolve("a.log"), HOST);
    w.header("A");
    Tailer tailer = new Tailer(config(false, 100));
    Future<?> run = start(tailer);
    // the shipper must have seen A before A is rotated away (it has no checkpoint to find it by)
    await().atMost(Duration.ofSeconds(30)).until(() -> checkpointOffset(w.source) >= 0);
    w.metrics(150);
    w.renameAndCreate("B");
    w.metrics(150);
    // one rotation per switch: the shipper must have reached B before B is rotated away (a file
    // rotated twice before the shipper switched to it is not followed; see README)
    await().atMost(Duration.ofSeconds(30)).until(() -> checkpointOffset(w.source) == w.offset());
    w.renameAndCreate("C"); // replaces the first rotated file
    w.metrics(100);

    List<DecodeEvent> got = awaitAll(w.lineNumbers(), run);
    tailer.stop();
    run.get();
    assertThat(checkpointOffset(w.source)).isEqualTo(w.offset());
    assertOnlyExpected(got, w.lineNumbers());
  }

  @Test
  void copyTruncateRotationWhileTailingLosesNoLine() throws Exception {
    MetricLog w = new MetricLog(dir.resolve("a.log"), HOST);
    w.header("A");
    Tailer tailer = new Tailer(config(false, 100));
    Future<?> run = start(tailer);
    w.metrics(200);
    // copytruncate loses what is written between copy and truncate: the writer pauses until
    // the shipper has everything, as logrotate's copytruncate requires for zero loss
    await().atMost(Duration.ofSeconds(30)).until(() -> checkpointOffset(w.source) == w.offset());
    w.copyTruncate("B");
    w.metrics(150);
    await().atMost(Duration.ofSeconds(30)).until(() -> checkpointOffset(w.source) == w.offset());
    w.copyTruncate("C");
    w.metrics(3); // shorter than before: detected by size and fingerprint

    List<DecodeEvent> got = awaitAll(w.lineNumbers(), run);
    tailer.stop();
    run.get();
    assertThat(checkpointOffset(w.source)).isEqualTo(w.offset());
    assertOnlyExpected(got, w.lineNumbers());
  }

  private void assertNoLostLine(Map<String, Long> expected) {
    List<DecodeEvent> got = awaitAll(expected, null);
    assertOnlyExpected(got, expected);
  }

  private static void assertOnlyExpected(List<DecodeEvent> got, Map<String, Long> expected) {
    Map<String, Long> seen = new HashMap<>();
    for (DecodeEvent e : got) {
      assertThat(expected)
          .as("unexpected event id of line %d", e.getLineNumber())
          .containsKey(e.getEventId());
      assertThat(e.getLineNumber()).isEqualTo(expected.get(e.getEventId()));
      seen.put(e.getEventId(), e.getLineNumber());
    }
    assertThat(seen).isEqualTo(expected);
  }

  /** Consumes until every expected id arrived, then one more second for extras. */
  private List<DecodeEvent> awaitAll(Map<String, Long> expected, Future<?> tailing) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it.tail"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<DecodeEvent> out = new ArrayList<>();
    java.util.Set<String> ids = new java.util.HashSet<>();
    try (Deserializer<DecodeEvent> values =
            AvroSerde.forClass(DecodeEvent.class, Map.of("schema.registry.url", registry), false)
                .deserializer();
        KafkaConsumer<String, DecodeEvent> consumer =
            new KafkaConsumer<>(p, new StringDeserializer(), values)) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(Duration.ofSeconds(45))
          .until(
              () -> {
                consumer
                    .poll(Duration.ofMillis(300))
                    .forEach(
                        r -> {
                          out.add(r.value());
                          ids.add(r.value().getEventId());
                        });
                if (tailing != null && tailing.isDone()) {
                  tailing.get(); // surfaces the tailer's failure
                  throw new AssertionError("tailer stopped before every line arrived");
                }
                return ids.containsAll(expected.keySet());
              });
      consumer.poll(Duration.ofMillis(1000)).forEach(r -> out.add(r.value()));
    }
    return out;
  }
}
