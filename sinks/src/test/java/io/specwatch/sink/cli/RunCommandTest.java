package io.specwatch.sink.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.sink.InsertFormat;
import io.specwatch.sink.SinkConfig;
import io.specwatch.sink.SinkTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RunCommandTest {

  @TempDir Path dir;

  private static RunCommand parse(String... args) {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs(args);
    return run;
  }

  @Test
  void durationsInBothFormsAndSharedKafkaOptions() throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(file, "security.protocol=SASL_SSL\n");
    SinkConfig iso =
        parse(
                "--flush-interval",
                "PT2S",
                "--exit-when-idle",
                "PT8S",
                "--bootstrap",
                "b:9092",
                "--kafka-properties-file",
                file.toString(),
                "--kafka-property",
                "client.rack=r1")
            .config();
    assertThat(iso.flushInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(iso.exitWhenIdle()).hasValue(Duration.ofSeconds(8));
    assertThat(iso.bootstrap()).isEqualTo("b:9092");
    assertThat(iso.consumerProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("client.rack", "r1");

    SinkConfig shortForm = parse("--flush-interval", "500ms", "--exit-when-idle", "10s").config();
    assertThat(shortForm.flushInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(shortForm.exitWhenIdle()).hasValue(Duration.ofSeconds(10));
  }

  @Test
  void securityOptionsReachConsumerAndSerdeAndArePrintedMasked() throws Exception {
    Path pw = Files.writeString(dir.resolve("ch-password"), "ch-Secret-1\n");
    SinkConfig c =
        parse(
                "--kafka-sasl-mechanism", "SCRAM-SHA-256",
                "--kafka-sasl-username", "sink",
                "--kafka-sasl-password", "kafka-Secret-2",
                "--registry-user", "reader",
                "--registry-password", "reg-Secret-3",
                "--clickhouse-password-file", pw.toString())
            .config();
    assertThat(c.consumerProperties())
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-256");
    assertThat(c.serdeConfig()).containsEntry("basic.auth.user.info", "reader:reg-Secret-3");
    assertThat(c.clickhouse().password()).isEqualTo("ch-Secret-1");
    assertThat(c.toString())
        .contains("sasl.jaas.config=[hidden]", "basic.auth.user.info=[hidden]", "password=[hidden]")
        .doesNotContain("ch-Secret-1", "kafka-Secret-2", "reg-Secret-3");
    assertThatThrownBy(
            () ->
                parse("--clickhouse-password", "x", "--clickhouse-password-file", pw.toString())
                    .config())
        .hasMessageContaining("--clickhouse-password-file");
  }

  @Test
  void errorsNameTheOption() {
    assertThatThrownBy(() -> parse("--flush-interval", "soon"))
        .hasMessageContaining("--flush-interval")
        .hasMessageContaining("'soon'");
    RunCommand missing = parse("--kafka-properties-file", dir.resolve("none").toString());
    assertThatThrownBy(missing::config).hasMessageContaining("--kafka-properties-file");
  }

  @Test
  void tablesTopicsAndFormat() {
    SinkConfig all = parse().config();
    if (System.getenv("SPECWATCH_SINK_TABLES") == null) {
      assertThat(all.topics()).hasSize(5);
    }
    SinkConfig two =
        parse(
                "--tables",
                "decode_events,window_results",
                "--decode-events-topic",
                "p.decode",
                "--topic",
                "p.windows",
                "--insert-format",
                "json")
            .config();
    assertThat(two.topics())
        .containsOnlyKeys(SinkTable.DECODE_EVENTS, SinkTable.WINDOW_RESULTS)
        .containsEntry(SinkTable.DECODE_EVENTS, "p.decode")
        .containsEntry(SinkTable.WINDOW_RESULTS, "p.windows");
    assertThat(two.insertFormat()).isEqualTo(InsertFormat.JSON_EACH_ROW);
    assertThatThrownBy(() -> parse("--tables", "decode_events,nope").config())
        .hasMessageContaining("--tables")
        .hasMessageContaining("nope");
  }

  @Test
  void healthPortOffByDefault() {
    if (System.getenv("SPECWATCH_HEALTH_PORT") == null) {
      assertThat(parse().health.port()).isEqualTo(-1);
    }
    assertThat(parse("--health-port", "0").health.port()).isZero();
  }
}
