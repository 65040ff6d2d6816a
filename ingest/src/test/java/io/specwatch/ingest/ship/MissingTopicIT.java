package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.cli.IngestCli;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Issue 3: a shipper whose target topic does not exist on a broker that does not create topics
 * ({@code auto.create.topics.enable=false}) fails at start naming the topic and the setting, for
 * {@code ship}, {@code tail} and {@code scrape}, instead of waiting for metadata per record. Own
 * broker (the shared one creates topics); the registry is the shared one.
 */
class MissingTopicIT {

  private static final String LINE =
      "[2025-10-20 09:00:00 TP0] Decode batch. #running-req: 2, #token: 1000, token usage: 0.10,"
          + " accept len: 2.50, cuda graph: True, gen throughput (token/s): 80.00, #queue-req: 0, ";

  private static KafkaContainer kafka;

  @TempDir Path dir;

  @BeforeAll
  static void startBroker() {
    kafka =
        SpecwatchContainers.newKafkaContainer().withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false");
    kafka.start();
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.stop();
    }
  }

  @Test
  void shipFailsFastNamingTheMissingTopicAndItsSetting() throws Exception {
    String[] t = topics("ship");
    create(t[1], t[2], t[3]); // every topic but the decode-events one
    Path log = log();

    assertFailsFastNaming(
        t[0],
        "topic (SPECWATCH_DECODE_TOPIC)",
        t,
        "ship",
        "--file",
        log.toString(),
        "--no-progress");
  }

  @Test
  void tailFailsFastNamingTheMissingDeadLetterTopic() throws Exception {
    String[] t = topics("tail");
    create(t[0], t[2], t[3]); // every topic but the dead-letter one
    Path log = log();

    assertFailsFastNaming(
        t[1],
        "dlq-topic (SPECWATCH_DLQ_TOPIC)",
        t,
        "tail",
        "--glob",
        log.toString(),
        "--checkpoint-dir",
        dir.resolve("checkpoints").toString(),
        "--exit-when-idle");
  }

  @Test
  void scrapeFailsFastNamingTheMissingRunContextTopic() throws Exception {
    String[] t = topics("scrape");
    create(t[0], t[1], t[2]); // every topic but the run-context one (scrape sends run contexts)

    // the check runs before the first scrape: the URL is never fetched
    assertFailsFastNaming(
        t[3],
        "run-context-topic (SPECWATCH_RUN_CONTEXT_TOPIC)",
        t,
        "scrape",
        "--url",
        "http://127.0.0.1:9/metrics",
        "--max-scrapes",
        "1");
  }

  /** The command exits 2 within 30 s, naming the missing topic, its setting and the broker's. */
  private void assertFailsFastNaming(String topic, String setting, String[] topics, String... args)
      throws Exception {
    StringWriter err = new StringWriter();
    long start = System.nanoTime();
    Object[] rest = java.util.Arrays.copyOf(args, args.length, Object[].class);
    rest[0] = topics; // the command's options, then the topics (cli() sorts them out)
    int code = cli(err, args[0], rest);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .contains("topic '" + topic + "'")
        .contains("setting '" + setting + "'")
        .contains("auto.create.topics.enable=false");
    // the producer alone would wait max.block.ms (60 s) for the topic's metadata
    assertThat(took).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void shipRunsWhenEveryTopicExists() throws Exception {
    String[] t = topics("ok");
    create(t);
    Path log = log();

    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    int code = cli(err, out, "ship", "--file", log.toString(), "--no-progress", t);

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("lines=1 recognised=1 dead-lettered=0");
  }

  private static String[] topics(String test) {
    return new String[] {
      SpecwatchContainers.uniqueName("it.missing." + test + ".decode-events"),
      SpecwatchContainers.uniqueName("it.missing." + test + ".dead-letter"),
      SpecwatchContainers.uniqueName("it.missing." + test + ".request-acceptance"),
      SpecwatchContainers.uniqueName("it.missing." + test + ".run-context")
    };
  }

  private static void create(String... topics) throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers()))) {
      admin
          .createTopics(
              java.util.Arrays.stream(topics).map(n -> new NewTopic(n, 1, (short) 1)).toList())
          .all()
          .get();
    }
  }

  private Path log() throws Exception {
    Path log = dir.resolve("engine.log");
    Files.writeString(log, LINE + "\n", StandardCharsets.UTF_8);
    return log;
  }

  private static int cli(StringWriter err, String command, Object... args) {
    return cli(err, new StringWriter(), command, args);
  }

  private static int cli(StringWriter err, StringWriter out, String command, Object... args) {
    List<String> argv = new java.util.ArrayList<>(List.of(command));
    String[] topics = null;
    for (Object a : args) {
      if (a instanceof String[] t) {
        topics = t;
      } else {
        argv.add((String) a);
      }
    }
    argv.addAll(
        List.of(
            "--deployment",
            "dep-missing-topic",
            "--host",
            "gpu-missing",
            "--bootstrap",
            kafka.getBootstrapServers(),
            "--registry-url",
            SpecwatchContainers.registryUrl(),
            "--topic",
            topics[0],
            "--dlq-topic",
            topics[1],
            "--request-topic",
            topics[2],
            "--run-context-topic",
            topics[3]));
    picocli.CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(argv.toArray(String[]::new));
  }
}
