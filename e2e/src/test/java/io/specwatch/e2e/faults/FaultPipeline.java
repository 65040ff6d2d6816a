package io.specwatch.e2e.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.ZeroLossOracle;
import io.specwatch.testkit.ZeroLossOracle.Expected;
import io.specwatch.testkit.ZeroLossOracle.Report;
import io.specwatch.testkit.ZeroLossOracle.WindowKey;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The real pipeline for the fault scenarios, shared by them: its own Kafka broker and ClickHouse
 * server (containers on fixed host ports, so a killed or stopped one comes back at the same
 * address; the shared ones of {@link SpecwatchContainers} are never disturbed), the shared schema
 * registry, streams-app and the sink as separate JVMs ({@link JvmProcess}), and one {@code ingest
 * tail} JVM per scenario. Each scenario has its own deployment and its own day of event time, after
 * the previous scenario's closing line, so no scenario's events are late for another's windows.
 */
final class FaultPipeline implements AutoCloseable {

  /** Grace of the windows: longer than any reordering a fault causes (re-sends after a kill). */
  static final String GRACE = "1h";

  final boolean longMode;
  final Path root;
  final String registry;
  final String bootstrap;
  final String database;
  final String clickhouseUrl;
  final String events;
  final String windows;
  final String runContexts;
  final String ingestDeadLetters;
  final String streamsDeadLetters;
  final String sinkDeadLetters;
  final String appId;
  private final String prefix;
  private final KafkaContainer kafka;
  private final ClickHouseContainer clickhouse;
  private final DockerClient docker = DockerClientFactory.instance().client();
  private final Map<String, JvmProcess> streams = new LinkedHashMap<>();
  private JvmProcess sink;
  private final List<JvmProcess> all = new ArrayList<>();

  /** Classes ahead of streams-app's and the sink's class path (null: none). */
  private Path consumerClasses;

  /** Suffix of the consumers' process (and log file) names after a restart. */
  private String consumerLabel = "";

  private final Path summaryFile;

  FaultPipeline(Path root, boolean longMode) throws Exception {
    this.root = root;
    this.longMode = longMode;
    registry = SpecwatchContainers.registryUrl(); // fails clearly without Docker
    kafka = SpecwatchContainers.newKafkaContainer();
    kafka.setPortBindings(List.of(freePort() + ":9092"));
    clickhouse =
        new ClickHouseContainer(SpecwatchContainers.images().clickhouseImage())
            .withUsername("default")
            .withPassword("")
            .withEnv("CLICKHOUSE_SKIP_USER_SETUP", "1")
            .withStartupTimeout(Duration.ofMinutes(2));
    clickhouse.setPortBindings(List.of(freePort() + ":8123"));
    kafka.start();
    clickhouse.start();
    bootstrap = kafka.getBootstrapServers();
    clickhouseUrl = clickhouse.getHttpUrl();
    prefix = SpecwatchContainers.uniqueName("faults");
    database = prefix.replace('-', '_').replace('.', '_');
    events = prefix + ".decode-events";
    windows = prefix + ".window-results";
    runContexts = prefix + ".run-context";
    ingestDeadLetters = prefix + ".ingest-dead-letter";
    streamsDeadLetters = prefix + ".streams-dead-letter";
    sinkDeadLetters = prefix + ".sink-dead-letter";
    appId = prefix + "-streams";
    summaryFile = Path.of(System.getProperty("basedir", "."), "target", "faults-summary.txt");
    Files.createDirectories(summaryFile.getParent());
    try (Admin admin = admin()) {
      // append time: records carry event times days old; retention must not delete them mid-run
      Map<String, String> appendTime = Map.of("message.timestamp.type", "LogAppendTime");
      List<NewTopic> topics = new ArrayList<>();
      for (String t : List.of(events, runContexts, windows, prefix + ".alerts")) {
        topics.add(new NewTopic(t, 3, (short) 1).configs(appendTime));
      }
      for (String t : List.of(ingestDeadLetters, streamsDeadLetters, sinkDeadLetters)) {
        topics.add(new NewTopic(t, 1, (short) 1).configs(appendTime));
      }
      admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
    }
    startStreams("streams-1");
    startSink();
    awaitUntil(
        "the sink created its tables",
        Duration.ofMinutes(3),
        () -> query("EXISTS TABLE " + database + ".window_results").strip().equals("1"));
  }

  Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
  }

  // ---- processes ----

  JvmProcess startStreams(String member) throws IOException {
    List<String> args =
        List.of(
            "run",
            "--bootstrap",
            bootstrap,
            "--registry-url",
            registry,
            "--application-id",
            appId,
            "--state-dir",
            root.resolve("state-" + member).toString(),
            "--decode-events-topic",
            events,
            "--window-results-topic",
            windows,
            "--run-context-topic",
            runContexts,
            "--dead-letter-topic",
            streamsDeadLetters,
            "--alerts-topic",
            prefix + ".alerts",
            "--window",
            "1m",
            "--grace",
            GRACE,
            // a killed member leaves the group after 6 s (the broker's minimum)
            "-K",
            "session.timeout.ms=6000",
            "-K",
            "heartbeat.interval.ms=1000",
            "-K",
            "client.id=" + appId + "-" + member);
    JvmProcess p =
        JvmProcess.start(
            member + consumerLabel,
            "io.specwatch.streams.Main",
            args,
            root.resolve("logs"),
            consumerClasses);
    streams.put(member, p);
    all.add(p);
    return p;
  }

  JvmProcess streams(String member) {
    return streams.get(member);
  }

  private void startSink() throws IOException {
    List<String> args =
        List.of(
            "run",
            "--bootstrap",
            bootstrap,
            "--registry-url",
            registry,
            "--clickhouse-url",
            clickhouseUrl,
            "--clickhouse-user",
            "default",
            "--database",
            database,
            "--tables",
            "window_results,decode_events",
            "--window-results-topic",
            windows,
            "--decode-events-topic",
            events,
            "--dead-letter-topic",
            sinkDeadLetters,
            "--group-id",
            prefix + "-sink");
    sink =
        JvmProcess.start(
            "sink" + consumerLabel,
            "io.specwatch.sink.cli.SinkCli",
            args,
            root.resolve("logs"),
            consumerClasses);
    all.add(sink);
  }

  JvmProcess sink() {
    return sink;
  }

  /**
   * A rolling change of the consumers' code: every streams-app member and the sink are stopped
   * (SIGTERM: a clean close that commits), then streams-1 and the sink start again on the same
   * state directory, group and application id with {@code classes} (or nothing, when null) ahead of
   * their class path; their process and log names end with {@code label}.
   */
  void restartConsumers(Path classes, String label) throws Exception {
    for (JvmProcess p : streams.values()) {
      p.stop(Duration.ofSeconds(90));
    }
    sink.stop(Duration.ofSeconds(90));
    streams.clear();
    consumerClasses = classes;
    consumerLabel = label;
    startStreams("streams-1");
    startSink();
  }

  /** {@code ingest tail} of {@code dir/*.log} as deployment {@code deployment}. */
  JvmProcess startShipper(
      String name, Path dir, String deployment, Path checkpoints, boolean exitWhenIdle)
      throws IOException {
    return startShipper(name, dir, deployment, checkpoints, exitWhenIdle, null);
  }

  /** As above, with {@code classes} (when not null) ahead of the shipper's class path. */
  JvmProcess startShipper(
      String name,
      Path dir,
      String deployment,
      Path checkpoints,
      boolean exitWhenIdle,
      Path classes)
      throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "tail",
                "--glob",
                dir + "/*.log",
                "--deployment",
                deployment,
                "--host",
                "gpu-" + deployment,
                "--checkpoint-dir",
                checkpoints.toString(),
                "--bootstrap",
                bootstrap,
                "--registry-url",
                registry,
                "--topic",
                events,
                "--dlq-topic",
                ingestDeadLetters,
                "--request-topic",
                prefix + ".request-acceptance",
                "--run-context-topic",
                runContexts,
                "--poll-interval",
                "50ms"));
    if (exitWhenIdle) {
      args.add("--exit-when-idle");
    }
    JvmProcess p =
        JvmProcess.start(
            name, "io.specwatch.ingest.cli.IngestCli", args, root.resolve("logs"), classes);
    all.add(p);
    return p;
  }

  // ---- faults on the services ----

  /** {@code docker kill} (SIGKILL) of the broker. */
  void killBroker() {
    docker.killContainerCmd(kafka.getContainerId()).exec();
    awaitUntil("broker gone", Duration.ofSeconds(30), () -> !running(kafka.getContainerId()));
  }

  void startBroker() {
    docker.startContainerCmd(kafka.getContainerId()).exec();
  }

  /** {@code docker stop} of ClickHouse: the server process ends, its data stays. */
  void stopClickHouse() {
    docker.stopContainerCmd(clickhouse.getContainerId()).withTimeout(2).exec();
  }

  void startClickHouse() {
    docker.startContainerCmd(clickhouse.getContainerId()).exec();
    awaitUntil(
        "ClickHouse answers again",
        Duration.ofMinutes(2),
        () -> {
          try {
            return query("SELECT 1").strip().equals("1");
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  private boolean running(String id) {
    return Boolean.TRUE.equals(docker.inspectContainerCmd(id).exec().getState().getRunning());
  }

  // ---- observations ----

  String query(String sql) {
    // reads, and the negative control's inserts (a repeated insert of the same row collapses
    // under FINAL), so a retry on a closed keep-alive connection is harmless
    return ZeroLossOracle.queryWithRetry(clickhouseUrl, sql);
  }

  /** Records in a (non-transactional) topic: sum over partitions of end minus start offset. */
  long records(String topic) throws Exception {
    try (Admin admin = admin()) {
      int partitions =
          admin
              .describeTopics(List.of(topic))
              .allTopicNames()
              .get(30, TimeUnit.SECONDS)
              .get(topic)
              .partitions()
              .size();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
      for (int p = 0; p < partitions; p++) {
        latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        earliest.put(new TopicPartition(topic, p), OffsetSpec.earliest());
      }
      long end =
          admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
              .mapToLong(i -> i.offset())
              .sum();
      long start =
          admin.listOffsets(earliest).all().get(30, TimeUnit.SECONDS).values().stream()
              .mapToLong(i -> i.offset())
              .sum();
      return end - start;
    }
  }

  /**
   * The registry schema id of every record of {@code deployment} (the record key) in {@code topic},
   * read from the start to the current end: schema id to records.
   */
  Map<Integer, Long> schemaIds(String topic, String deployment) {
    Map<String, Object> props =
        Map.of("bootstrap.servers", bootstrap, "isolation.level", "read_committed");
    Map<Integer, Long> ids = new java.util.TreeMap<>();
    try (var c =
        new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(
            props,
            new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
            new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      c.partitionsFor(topic).forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      byte[] key = deployment.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
        assertThat(System.nanoTime()).as("reading " + topic + " to its end").isLessThan(deadline);
        for (var r : c.poll(Duration.ofMillis(500))) {
          if (java.util.Arrays.equals(r.key(), key)) {
            ids.merge(
                io.specwatch.serde.WireFormat.readSchemaId(
                    topic, java.nio.ByteBuffer.wrap(r.value())),
                1L,
                Long::sum);
          }
        }
      }
    }
    return ids;
  }

  /** Members of the streams-app's consumer group when it is stable, else -1. */
  int streamsMembers() throws Exception {
    try (Admin admin = admin()) {
      var d =
          admin.describeConsumerGroups(List.of(appId)).all().get(30, TimeUnit.SECONDS).get(appId);
      return d.groupState() == org.apache.kafka.common.GroupState.STABLE ? d.members().size() : -1;
    }
  }

  /**
   * The streams member ({@code streams-1} / {@code streams-2}) whose consumer is assigned the
   * decode-events partition the deployment's records are in (read from decode_events).
   */
  String ownerOfDeployment(String deployment) throws Exception {
    int partition =
        Integer.parseInt(
            query(
                    "SELECT any(kafka_partition) FROM "
                        + database
                        + ".decode_events WHERE deployment_id = '"
                        + deployment
                        + "'")
                .strip());
    TopicPartition tp = new TopicPartition(events, partition);
    try (Admin admin = admin()) {
      var d =
          admin.describeConsumerGroups(List.of(appId)).all().get(30, TimeUnit.SECONDS).get(appId);
      for (var m : d.members()) {
        if (m.assignment().topicPartitions().contains(tp)) {
          for (String member : streams.keySet()) {
            if (m.clientId().startsWith(appId + "-" + member + "-")) {
              return member;
            }
          }
        }
      }
      throw new AssertionError("no streams member owns " + tp + ": " + d);
    }
  }

  /** Waits until the sink's committed offsets reach the end of the events topic. */
  void awaitSinkCaughtUp(Duration timeout) {
    awaitUntil(
        "the sink committed every decode event",
        timeout,
        () -> {
          assertAppsAlive();
          try (Admin admin = admin()) {
            Map<TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> committed =
                admin
                    .listConsumerGroupOffsets(prefix + "-sink")
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < 3; p++) {
              latest.put(new TopicPartition(events, p), OffsetSpec.latest());
            }
            var ends = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            for (var e : ends.entrySet()) {
              var c = committed.get(e.getKey());
              if (e.getValue().offset() > 0 && (c == null || c.offset() < e.getValue().offset())) {
                return false;
              }
            }
            return true;
          }
        });
  }

  /** Raw decode_events rows (no FINAL) of a deployment. */
  long rawRows(String deployment) {
    return Long.parseLong(
        query(
                "SELECT count() FROM "
                    + database
                    + ".decode_events WHERE deployment_id = '"
                    + deployment
                    + "'")
            .strip());
  }

  /** Fails with the apps' output when streams-app or the sink died. */
  void assertAppsAlive() {
    for (JvmProcess p : streams.values()) {
      assertThat(p.isAlive()).as("%s died:\n%s", p.name(), p.tail(6000)).isTrue();
    }
    assertThat(sink.isAlive()).as("sink died:\n%s", sink.tail(6000)).isTrue();
  }

  // ---- the oracle ----

  /**
   * Waits until every metric line of {@code log} is in decode_events, writes the closing line (two
   * hours after the last event: past end + grace of every data window, which closes them), waits
   * until every closed window is in ClickHouse with its count (or the timeout), lets 3 s pass for
   * late duplicates, and returns the oracle's final report, printed and appended to
   * target/faults-summary.txt.
   */
  Outcome settle(String scenario, EngineLog log, Duration timeout) throws Exception {
    return settle(scenario, log, timeout, false);
  }

  /**
   * As {@link #settle(String, EngineLog, Duration)}; with {@code windowsAtLeastOnce} it waits for
   * no window under-counted instead of every window exact (a scenario where re-sent events may be
   * counted twice in their window).
   */
  Outcome settle(String scenario, EngineLog log, Duration timeout, boolean windowsAtLeastOnce)
      throws Exception {
    String deployment = deploymentOf(log);
    Set<String> dataIds = log.ids();
    awaitUntil(
        scenario + ": every shipped event in decode_events",
        timeout,
        () -> {
          assertAppsAlive();
          return ZeroLossOracle.check(
                  clickhouseUrl, database, new Expected(Set.of(deployment), dataIds, Map.of(), "0"))
              .lost()
              .isEmpty();
        });
    LocalDateTime closeAt = log.time().plusHours(2);
    log.metricAt(closeAt);
    String windowsBefore = EngineLog.minuteOf(closeAt);
    Expected expected = expected(deployment, log.ids(), log.windows(), windowsBefore);
    awaitUntil(
        scenario + ": every closed window in window_results",
        timeout,
        () -> {
          assertAppsAlive();
          Report r = ZeroLossOracle.check(clickhouseUrl, database, expected);
          return r.lost().isEmpty()
              && r.missingWindows().isEmpty()
              && (windowsAtLeastOnce
                  ? r.underCountedEvents() == 0
                  : r.wrongCountWindows().isEmpty());
        },
        () -> ZeroLossOracle.check(clickhouseUrl, database, expected).details(scenario));
    Thread.sleep(3000);
    Report report = ZeroLossOracle.check(clickhouseUrl, database, expected);
    record(report.details(scenario));
    return new Outcome(deployment, expected, report, closeAt);
  }

  /** The oracle's inputs and verdict of a settled scenario. */
  record Outcome(String deployment, Expected expected, Report report, LocalDateTime closeAt) {}

  static Expected expected(
      String deployment, Set<String> ids, Map<WindowKey, Long> windows, String before) {
    Map<WindowKey, Long> closed =
        windows.entrySet().stream()
            .filter(e -> e.getKey().windowStart().compareTo(before) < 0)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    return new Expected(Set.of(deployment), ids, closed, before);
  }

  /**
   * The negative control: the same oracle must fail when the pipeline loses, duplicates or adds.
   * Lost: a file of the same deployment written outside the shipper's glob ({@code dropped.held}: 5
   * lines in the scenario's first minute, 1 line in a minute with no other data), which the oracle
   * is told went in. Duplicated: a copy of a real row under the same event id with the event time
   * one second later (a dedup key that no longer matches). Extra: a row with an id nobody wrote. A
   * duplicated window: a second total row for the last data minute (other spec_enabled). Asserts
   * the report names exactly those, and prints it.
   */
  void negativeControl(String scenario, EngineLog log, Outcome clean, LocalDateTime start)
      throws Exception {
    String d = clean.deployment();
    EngineLog dropped =
        new EngineLog(log.path.resolveSibling("dropped.held"), "gpu-" + d, d, start);
    dropped.metrics(5);
    dropped.metricAt(clean.closeAt().minusMinutes(30));
    String dupId = log.ids().stream().sorted().findFirst().orElseThrow();
    String dupTime =
        query(
                "SELECT toString(event_time + 1) FROM "
                    + database
                    + ".decode_events WHERE event_id = '"
                    + dupId
                    + "' LIMIT 1")
            .strip();
    query(
        "INSERT INTO "
            + database
            + ".decode_events (event_id, deployment_id, event_time, event_time_ms)"
            + " FORMAT JSONEachRow {\"event_id\":\""
            + dupId
            + "\",\"deployment_id\":\""
            + d
            + "\",\"event_time\":\""
            + dupTime
            + "\",\"event_time_ms\":0}");
    String extraId = "negative-control-extra-" + d;
    query(
        "INSERT INTO "
            + database
            + ".decode_events (event_id, deployment_id, event_time, event_time_ms)"
            + " FORMAT JSONEachRow {\"event_id\":\""
            + extraId
            + "\",\"deployment_id\":\""
            + d
            + "\",\"event_time\":\""
            + dupTime
            + "\",\"event_time_ms\":0}");
    Map.Entry<WindowKey, Long> last =
        clean.expected().windows().entrySet().stream()
            .max(Map.Entry.comparingByKey())
            .orElseThrow();
    query(
        "INSERT INTO "
            + database
            + ".window_results (deployment_id, prompt_category, batch_bucket,"
            + " window_start, window_end, events, spec_enabled) FORMAT JSONEachRow {\"deployment_id\":\""
            + d
            + "\",\"prompt_category\":\"*\",\"batch_bucket\":\"*\",\"window_start\":\""
            + last.getKey().windowStart()
            + "\",\"window_end\":\""
            + last.getKey().windowStart()
            + "\",\"events\":"
            + last.getValue()
            + ",\"spec_enabled\":7}");

    Set<String> ids = new java.util.HashSet<>(clean.expected().eventIds());
    ids.addAll(dropped.ids());
    Map<WindowKey, Long> windows = new HashMap<>(clean.expected().windows());
    dropped.windows().forEach((k, v) -> windows.merge(k, v, Long::sum));
    Expected withDropped = expected(d, ids, windows, clean.expected().windowsBefore());
    Report r = ZeroLossOracle.check(clickhouseUrl, database, withDropped);
    record(r.details(scenario + " (negative control)"));
    Set<WindowKey> droppedWindows = dropped.windows().keySet();
    WindowKey gap = new WindowKey(d, EngineLog.minuteOf(clean.closeAt().minusMinutes(30)));
    assertThat(r.clean()).isFalse();
    assertThat(r.lost()).as(r.details(scenario)).isEqualTo(dropped.ids());
    assertThat(r.duplicated()).containsExactly(dupId);
    assertThat(r.extra()).containsExactly(extraId);
    assertThat(r.missingWindows()).containsExactly(gap);
    assertThat(r.duplicatedWindows()).containsExactly(last.getKey());
    Set<WindowKey> wrongExpected =
        new java.util.TreeSet<>(clean.report().wrongCountWindows().keySet());
    droppedWindows.stream().filter(k -> !k.equals(gap)).forEach(wrongExpected::add);
    assertThat(r.wrongCountWindows().keySet()).isEqualTo(wrongExpected);
    assertThat(r.underCountedEvents()).isEqualTo(dropped.ids().size() - 1);
  }

  static String deploymentOf(EngineLog log) {
    return log.deployment();
  }

  void record(String line) throws IOException {
    System.out.println(line);
    Files.writeString(
        summaryFile,
        line + System.lineSeparator(),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  // ---- waiting ----

  interface Check {
    boolean ok() throws Exception;
  }

  static void awaitUntil(String what, Duration timeout, Check check) {
    awaitUntil(what, timeout, check, () -> "");
  }

  /** Polls every {@code pollMillis} ms (for a moment that must not be missed). */
  static void awaitUntil(String what, Duration timeout, Check check, long pollMillis) {
    awaitUntil(what, timeout, check, () -> "", pollMillis);
  }

  static void awaitUntil(
      String what, Duration timeout, Check check, java.util.concurrent.Callable<String> state) {
    awaitUntil(what, timeout, check, state, 500);
  }

  static void awaitUntil(
      String what,
      Duration timeout,
      Check check,
      java.util.concurrent.Callable<String> state,
      long pollMillis) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Throwable last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (check.ok()) {
          return;
        }
        last = null;
      } catch (AssertionError e) {
        throw e;
      } catch (Exception e) {
        last = e;
      }
      try {
        Thread.sleep(pollMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    String detail;
    try {
      detail = state.call();
    } catch (Exception e) {
      detail = "(state unavailable: " + e + ")";
    }
    throw new AssertionError(
        "timed out after " + timeout + " waiting for: " + what + "\n" + detail, last);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    for (JvmProcess p : all) {
      p.close();
    }
    clickhouse.stop();
    kafka.stop();
  }
}
