package io.specwatch.e2e.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestPorts;
import io.specwatch.testkit.ZeroLossOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
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
 *
 * <p>This class starts, stops and breaks the services and apps; what a scenario observes on the
 * broker is in {@link KafkaProbe}, the oracle's verdict and its negative control in {@link
 * FaultOracle}.
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
    kafka.setPortBindings(List.of(TestPorts.freePort() + ":9092"));
    clickhouse =
        new ClickHouseContainer(SpecwatchContainers.images().clickhouseImage())
            .withUsername("default")
            .withPassword("")
            .withEnv("CLICKHOUSE_SKIP_USER_SETUP", "1")
            .withStartupTimeout(Duration.ofMinutes(2));
    clickhouse.setPortBindings(List.of(TestPorts.freePort() + ":8123"));
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
    Await.until(
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

  /** The streams-app members started so far ({@code streams-1}, ...), in start order. */
  Set<String> streamsMemberNames() {
    return Collections.unmodifiableSet(streams.keySet());
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
            sinkGroup());
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

  /** The sink's consumer group. */
  String sinkGroup() {
    return prefix + "-sink";
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
    Await.until("broker gone", Duration.ofSeconds(30), () -> !running(kafka.getContainerId()));
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
    Await.until(
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

  // ---- ClickHouse, liveness, the summary ----

  String query(String sql) {
    // reads, and the negative control's inserts (a repeated insert of the same row collapses
    // under FINAL), so a retry on a closed keep-alive connection is harmless
    return ZeroLossOracle.queryWithRetry(clickhouseUrl, sql);
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

  /** Prints {@code line} and appends it to target/faults-summary.txt. */
  void record(String line) throws IOException {
    System.out.println(line);
    Files.writeString(
        summaryFile,
        line + System.lineSeparator(),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
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
