package io.specwatch.e2e;

import static io.specwatch.e2e.SaslClientArgs.PASSWORD;
import static io.specwatch.e2e.SaslClientArgs.REGISTRY_PASSWORD;
import static io.specwatch.e2e.SaslClientArgs.USER;
import static io.specwatch.e2e.SaslClientArgs.securityArgs;
import static io.specwatch.e2e.SaslClientArgs.tlsArgs;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.cli.IngestCli;
import io.specwatch.runtime.KafkaOptions;
import io.specwatch.sink.WindowQueries;
import io.specwatch.sink.cli.SinkCli;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestTls;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.Container;
import org.testcontainers.kafka.KafkaContainer;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/**
 * The pipeline against a broker whose client listener only speaks SASL_SSL: TLS with a test CA
 * (made with keytool at the start, see {@link TestTls}), a client certificate required (mutual
 * TLS), and SCRAM-SHA-512 inside. {@code ingest ship}, {@code streams run} and {@code sink run} run
 * through their command lines (in this JVM, one after the other) and get the trust store, key store
 * and SCRAM credentials from the dedicated options (password file for SCRAM); window rows arrive in
 * ClickHouse; the log lines of each app's own run hold exactly one effective-config line of its
 * own, with every password masked; and none of the Kafka, trust store, key store or registry
 * passwords appears in any log line of the run. One broker start covers both SCRAM and TLS.
 * Negative controls: a wrong SCRAM password fails the ship command with an authentication error; a
 * client without the trust store fails the TLS handshake; both exit 2 without printing a password.
 */
class SaslPipelineIT {

  /** The same log as PipelineIT: two closed windows. */
  private static final List<String> LOG =
      List.of(
          "[2025-03-14 02:00:56 TP0] Decode batch. #running-req: 4, #token: 1200, token usage: 0.02,"
              + " accept len: 2.00, gen throughput (token/s): 240.00, #queue-req: 0, ",
          "[2025-03-14 02:00:57 TP0] Decode batch. #running-req: 4, #token: 1300, token usage: 0.02,"
              + " accept len: 3.00, gen throughput (token/s): 480.00, #queue-req: 0, ",
          "[2025-03-14 02:00:59 TP0] Decode batch. #running-req: 2, #token: 700, token usage: 0.01,"
              + " accept len: 2.00, gen throughput (token/s): 80.00, #queue-req: 0, ",
          "[2025-03-14 02:01:01 TP0] Decode batch. #running-req: 4, #token: 1400, token usage: 0.02,"
              + " accept len: 1.50, gen throughput (token/s): 120.00, #queue-req: 0, ",
          "[2025-03-14 02:01:02 TP0] Decode batch. #running-req: 8, #token: 2800, token usage: 0.04,"
              + " accept len: 2.00, gen throughput (token/s): 640.00, #queue-req: 1, ",
          "[2025-03-14 02:02:40 TP0] Decode batch. #running-req: 4, #token: 1500, token usage: 0.02,"
              + " accept len: 2.00, gen throughput (token/s): 240.00, #queue-req: 0, ");

  private static KafkaContainer kafka;
  private static TestTls.Material tls;
  private static CapturingAppender logs;

  static final class Opts {
    @Mixin KafkaOptions kafka = new KafkaOptions();
  }

  @BeforeAll
  static void services() throws Exception {
    KafkaContainer container = SpecwatchContainers.newKafkaContainer();
    // the broker certificate names localhost, 127.0.0.1 and the Docker host clients connect to
    tls = TestTls.generate(Files.createTempDirectory("specwatch-tls"), container.getHost());
    kafka = SpecwatchContainers.withSaslSsl(container, tls);
    kafka.start();
    Container.ExecResult created =
        kafka.execInContainer(
            "java",
            "-cp",
            "/opt/kafka/libs/*",
            "org.apache.kafka.tools.ConfigCommand",
            "--bootstrap-server",
            "localhost:9093",
            "--alter",
            "--add-config",
            "SCRAM-SHA-512=[iterations=4096,password=" + PASSWORD + "]",
            "--entity-type",
            "users",
            "--entity-name",
            USER);
    assertThat(created.getExitCode()).as(created.getStderr()).isZero();
    logs = CapturingAppender.attachToRoot();
  }

  @AfterAll
  static void close() {
    if (logs != null) {
      logs.detachFromRoot();
    }
    if (kafka != null) {
      kafka.stop();
    }
  }

  @Test
  void pipelineRunsOverScramAndEachAppLogsItsConfigMasked(@TempDir Path tmp) throws Exception {
    Path pw = Files.writeString(tmp.resolve("kafka-password"), PASSWORD + "\n");
    String bootstrap = kafka.getBootstrapServers();
    String registryUrl = SpecwatchContainers.registryUrl();
    List<String> common = new ArrayList<>(List.of("--bootstrap", bootstrap));
    common.addAll(List.of("--registry-url", registryUrl));
    common.addAll(securityArgs(tls, pw));

    // the test's own admin client (its options log a config line too: outside every app's run)
    List<String> optionArgs = new ArrayList<>(common);
    Map<String, String> raw =
        CommandLine.populateCommand(new Opts(), optionArgs.toArray(String[]::new))
            .kafka
            .rawProperties();
    // a trust store and a SASL mechanism: SASL_SSL without --kafka-security-protocol
    assertThat(raw).containsEntry("security.protocol", "SASL_SSL");
    String events = SpecwatchContainers.uniqueName("sasl-events");
    String windows = SpecwatchContainers.uniqueName("sasl-windows");
    String dlq = SpecwatchContainers.uniqueName("sasl-dlq");
    String contexts = SpecwatchContainers.uniqueName("sasl-context");
    String alerts = SpecwatchContainers.uniqueName("sasl-alerts");
    Map<String, Object> adminProps = new HashMap<>(raw);
    adminProps.put("bootstrap.servers", bootstrap);
    try (Admin admin = Admin.create(adminProps)) {
      List<NewTopic> topics = new ArrayList<>();
      for (String t : List.of(events, dlq, contexts)) {
        topics.add(new NewTopic(t, 3, (short) 1));
      }
      for (String t : List.of(windows, alerts)) {
        topics.add(
            new NewTopic(t, 3, (short) 1)
                .configs(Map.of("message.timestamp.type", "LogAppendTime")));
      }
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    }

    // the three apps through their command lines, one after the other, each with the options
    Path logFile = Files.write(tmp.resolve("sglang.log"), LOG, StandardCharsets.UTF_8);
    List<String> ship =
        new ArrayList<>(
            List.of(
                "ship",
                "--file",
                logFile.toString(),
                "--no-progress",
                "--deployment",
                "sasl-e2e",
                "--host",
                "gpu-host-1",
                "--topic",
                events,
                "--dlq-topic",
                dlq,
                "--run-context-topic",
                contexts));
    ship.addAll(common);
    AppRun ingest =
        AppRun.of(
            logs,
            "ingest ship",
            () -> IngestCli.newCommandLine().execute(ship.toArray(String[]::new)));

    List<String> streams =
        new ArrayList<>(
            List.of(
                "run",
                "--application-id",
                SpecwatchContainers.uniqueName("sasl-app"),
                "--state-dir",
                tmp.resolve("state").toString(),
                "--window",
                "1m",
                "--grace",
                "30s",
                "--decode-events-topic",
                events,
                "--window-results-topic",
                windows,
                "--run-context-topic",
                contexts,
                "--dead-letter-topic",
                dlq,
                "--alerts-topic",
                alerts,
                "--no-create-topics",
                "--exit-when-idle",
                "8s"));
    streams.addAll(common);
    AppRun streamsRun =
        AppRun.of(
            logs,
            "streams run",
            () ->
                new CommandLine(new io.specwatch.streams.Main())
                    .execute(streams.toArray(String[]::new)));

    String database = SpecwatchContainers.uniqueName("sasl").replace('-', '_');
    List<String> sinkArgs =
        new ArrayList<>(
            List.of(
                "run",
                "--clickhouse-url",
                SpecwatchContainers.clickhouseHttpUrl(),
                "--database",
                database,
                "--tables",
                "window_results",
                "--window-results-topic",
                windows,
                "--dead-letter-topic",
                dlq,
                "--group-id",
                SpecwatchContainers.uniqueName("sasl-sink"),
                "--exit-when-idle",
                "5s"));
    sinkArgs.addAll(common);
    AppRun sink =
        AppRun.of(logs, "sink run", () -> SinkCli.execute(sinkArgs.toArray(String[]::new)));

    for (AppRun run : List.of(ingest, streamsRun, sink)) {
      run.assertMaskedEffectiveConfig(tls);
    }
    // 02:00: total + bucket 2-4; 02:01: total + 2-4 + 5-8 (see PipelineIT)
    ClickHouseConfig clickhouse =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", database);
    try (ClickHouseSql sql = new ClickHouseSql(clickhouse)) {
      assertThat(new WindowQueries(sql, database).countFinal()).isEqualTo(5);
    }
    String logged = logs.text.toString();
    assertThat(logged).doesNotContain(PASSWORD).doesNotContain(REGISTRY_PASSWORD);
    for (String secret : tls.passwords()) {
      assertThat(logged).doesNotContain(secret);
    }
  }

  /** Exit code, stdout + stderr + the log lines of a {@code ship} run, and its stderr alone. */
  private record Run(int exit, String output, String err) {}

  private static Run ship(Path tmp, String deployment, List<String> securityArgs) throws Exception {
    Path logFile = Files.write(tmp.resolve("sglang.log"), LOG, StandardCharsets.UTF_8);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int before = logs.text.length();
    List<String> args =
        new ArrayList<>(
            List.of(
                "ship",
                "--file",
                logFile.toString(),
                "--no-progress",
                "--deployment",
                deployment,
                "--bootstrap",
                kafka.getBootstrapServers(),
                "--registry-url",
                SpecwatchContainers.registryUrl(),
                "--topic",
                SpecwatchContainers.uniqueName(deployment)));
    args.addAll(securityArgs);
    int exit = cli.execute(args.toArray(String[]::new));
    return new Run(exit, out + "\n" + err + "\n" + logs.text.substring(before), err.toString());
  }

  @Test
  void wrongPasswordFailsWithAnAuthenticationErrorAndNoPasswordInTheOutput(@TempDir Path tmp)
      throws Exception {
    String wrong = "wrong-Pw-0a1b2c";
    List<String> security = new ArrayList<>(tlsArgs(tls));
    security.addAll(
        List.of(
            "--kafka-sasl-mechanism",
            "SCRAM-SHA-512",
            "--kafka-sasl-username",
            USER,
            "--kafka-sasl-password",
            wrong));
    Run run = ship(tmp, "sasl-denied", security);
    assertThat(run.exit()).as(run.output()).isEqualTo(2);
    assertThat(run.err()).containsIgnoringCase("authentication failed");
    assertThat(run.output()).doesNotContain(wrong).doesNotContain(PASSWORD);
    for (String secret : tls.passwords()) {
      assertThat(run.output()).doesNotContain(secret);
    }
  }

  @Test
  void clientWithoutTheTrustStoreFailsTheTlsHandshake(@TempDir Path tmp) throws Exception {
    // right SCRAM credentials and client certificate, but the JDK's default trust store, which
    // does not know the test CA
    Run run =
        ship(
            tmp,
            "tls-untrusted",
            List.of(
                "--kafka-security-protocol",
                "SASL_SSL",
                "--kafka-keystore-type",
                "PKCS12",
                "--kafka-keystore",
                tls.clientKeystore().toString(),
                "--kafka-keystore-password",
                tls.clientKeystorePassword(),
                "--kafka-key-password",
                tls.clientKeystorePassword(),
                "--kafka-sasl-mechanism",
                "SCRAM-SHA-512",
                "--kafka-sasl-username",
                USER,
                "--kafka-sasl-password",
                PASSWORD));
    assertThat(run.exit()).as(run.output()).isEqualTo(2);
    assertThat(run.err()).as(run.output()).containsIgnoringCase("SSL handshake failed");
    assertThat(run.output()).doesNotContain(tls.clientKeystorePassword());
  }
}
