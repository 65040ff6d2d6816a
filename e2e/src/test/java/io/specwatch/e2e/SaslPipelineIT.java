package io.specwatch.e2e;

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
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
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

  private static final String USER = "specwatch-app";
  private static final String PASSWORD = "scram-Pw-4f9c1e";
  private static final String REGISTRY_PASSWORD = "reg-Pw-77d0b2";

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

  /** Every log event of the JVM (message and exception chain), in memory. */
  static final class CapturingAppender extends AbstractAppender {
    final StringBuffer text = new StringBuffer();

    CapturingAppender() {
      super("sasl-it-capture", null, null, true, Property.EMPTY_ARRAY);
    }

    @Override
    public void append(LogEvent event) {
      text.append(event.getMessage().getFormattedMessage()).append('\n');
      for (Throwable t = event.getThrown(); t != null; t = t.getCause()) {
        text.append(t).append('\n');
      }
    }
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
    logs = new CapturingAppender();
    logs.start();
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    ctx.getConfiguration().getRootLogger().addAppender(logs, null, null);
    ctx.updateLoggers();
  }

  @AfterAll
  static void close() {
    if (logs != null) {
      LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
      ctx.getConfiguration().getRootLogger().removeAppender(logs.getName());
      ctx.updateLoggers();
    }
    if (kafka != null) {
      kafka.stop();
    }
  }

  /**
   * The client TLS options: CA trust store, client key store (mutual TLS), their passwords from
   * files as the chart's mounted Secrets provide them.
   */
  private static List<String> tlsArgs() {
    try {
      Path dir = tls.dir();
      Path tsPw =
          Files.writeString(
              dir.resolve("client-truststore.password"), tls.clientTruststorePassword() + "\n");
      Path ksPw =
          Files.writeString(
              dir.resolve("client-keystore.password"), tls.clientKeystorePassword() + "\n");
      return List.of(
          "--kafka-truststore",
          tls.clientTruststore().toString(),
          "--kafka-truststore-type",
          "PKCS12",
          "--kafka-truststore-password-file",
          tsPw.toString(),
          "--kafka-keystore-type",
          "PKCS12",
          "--kafka-keystore",
          tls.clientKeystore().toString(),
          "--kafka-keystore-password-file",
          ksPw.toString(),
          "--kafka-key-password-file",
          ksPw.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The security options every app gets: TLS stores, SCRAM with a password file, registry auth. */
  private static List<String> securityArgs(Path passwordFile) {
    List<String> args = new ArrayList<>(tlsArgs());
    args.addAll(
        List.of(
            "--kafka-sasl-mechanism",
            "SCRAM-SHA-512",
            "--kafka-sasl-username",
            USER,
            "--kafka-sasl-password-file",
            passwordFile.toString(),
            // the test registry has no auth and ignores the header; the point is the masking
            "--registry-user",
            "reader",
            "--registry-password",
            REGISTRY_PASSWORD));
    return args;
  }

  /** One app run in this JVM: its exit code and the log lines written while it ran. */
  private record AppRun(String app, int exit, String logged) {}

  private static AppRun runApp(String app, java.util.function.IntSupplier cli) {
    int before = logs.text.length();
    int exit = cli.getAsInt();
    return new AppRun(app, exit, logs.text.substring(before));
  }

  /**
   * Each app logged its own effective Kafka config once, with every secret masked, and no secret
   * anywhere in its log lines.
   */
  private static void assertMaskedEffectiveConfig(AppRun run) {
    assertThat(run.exit()).as(run.app() + " exit code\n" + run.logged()).isZero();
    List<String> lines =
        run.logged().lines().filter(l -> l.startsWith("effective Kafka config: ")).toList();
    assertThat(lines).as(run.app() + ": its effective Kafka config line").hasSize(1);
    assertThat(lines.get(0))
        .as(run.app())
        .contains(
            "security.protocol=SASL_SSL",
            "sasl.mechanism=SCRAM-SHA-512",
            "sasl.jaas.config=[hidden]",
            "ssl.keystore.password=[hidden]",
            "ssl.truststore.password=[hidden]",
            "ssl.key.password=[hidden]",
            "basic.auth.user.info=[hidden]",
            "ssl.truststore.location=" + tls.clientTruststore());
    assertThat(run.logged()).as(run.app()).doesNotContain(PASSWORD, REGISTRY_PASSWORD);
    for (String secret : tls.passwords()) {
      assertThat(run.logged()).as(run.app()).doesNotContain(secret);
    }
  }

  @Test
  void pipelineRunsOverScramAndEachAppLogsItsConfigMasked(@TempDir Path tmp) throws Exception {
    Path pw = Files.writeString(tmp.resolve("kafka-password"), PASSWORD + "\n");
    String bootstrap = kafka.getBootstrapServers();
    String registryUrl = SpecwatchContainers.registryUrl();
    List<String> common = new ArrayList<>(List.of("--bootstrap", bootstrap));
    common.addAll(List.of("--registry-url", registryUrl));
    common.addAll(securityArgs(pw));

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
        runApp(
            "ingest ship", () -> IngestCli.newCommandLine().execute(ship.toArray(String[]::new)));

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
        runApp(
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
    AppRun sink = runApp("sink run", () -> SinkCli.execute(sinkArgs.toArray(String[]::new)));

    for (AppRun run : List.of(ingest, streamsRun, sink)) {
      assertMaskedEffectiveConfig(run);
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
    List<String> security = new ArrayList<>(tlsArgs());
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
