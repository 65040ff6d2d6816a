package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.ingest.tail.TailConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TailCommandTest {

  @TempDir Path dir;

  private TailConfig parse(String... args) {
    CommandLine cli = IngestCli.newCommandLine();
    CommandLine.ParseResult parsed = cli.parseArgs(args);
    TailCommand cmd = (TailCommand) parsed.subcommand().commandSpec().userObject();
    return cmd.toConfig();
  }

  /** The required settings (deployment, glob, checkpoint dir), then {@code more}. */
  private TailConfig parseMinimal(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "tail", "--deployment", "dep", "--glob", "x", "--checkpoint-dir", dir.toString()));
    args.addAll(List.of(more));
    return parse(args.toArray(String[]::new));
  }

  @Test
  void optionsBecomeAValidatedConfig() {
    TailConfig c =
        parse(
            "tail",
            "--glob",
            dir + "/*.log",
            "--glob",
            dir + "/other/*.txt",
            "--deployment",
            "dep",
            "--host",
            "gpu-3",
            "--checkpoint-dir",
            dir.resolve("cp").toString(),
            "--bootstrap",
            "k:9092",
            "--registry-url",
            "http://r",
            "--poll-interval",
            "100ms",
            "--max-in-flight-lines",
            "500",
            "--exit-when-idle");
    assertThat(c.globs()).containsExactly(dir + "/*.log", dir + "/other/*.txt");
    assertThat(c.ship().deploymentId()).isEqualTo("dep");
    assertThat(c.ship().host()).isEqualTo("gpu-3");
    assertThat(c.checkpointDir()).isEqualTo(dir.resolve("cp"));
    assertThat(c.pollInterval()).isEqualTo(Duration.ofMillis(100));
    assertThat(c.maxInFlightLines()).isEqualTo(500);
    assertThat(c.exitWhenIdle()).isTrue();
    assertThat(c.producerProperties())
        .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
        .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true")
        .containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "2147483647");
  }

  @Test
  void missingSettingsAreNamed() {
    assertThatThrownBy(
            () ->
                parse(
                    "tail",
                    "--deployment",
                    "dep",
                    "--checkpoint-dir",
                    dir.toString(),
                    "--glob",
                    " "))
        .hasMessageContaining("glob");
    assertThatThrownBy(
            () -> parse("tail", "--deployment", "dep", "--glob", "x", "--max-in-flight-lines", "0"))
        .hasMessageContaining("checkpoint-dir");
    assertThatThrownBy(() -> parseMinimal("--max-in-flight-lines", "0"))
        .hasMessageContaining("max-in-flight-lines");
  }

  @Test
  void aNegativeShutdownTimeoutFailsNamingTheSetting() {
    assertThatThrownBy(() -> parseMinimal("--shutdown-timeout", "-PT5S"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "setting 'shutdown-timeout' (SPECWATCH_SHUTDOWN_TIMEOUT) must be >= 0, was PT-5S");
  }

  @Test
  void durationsAcceptShortAndIsoFormsAndAPropertiesFilePassesThrough() throws Exception {
    java.nio.file.Path props = dir.resolve("client.properties");
    java.nio.file.Files.writeString(props, "security.protocol=SASL_SSL\nlinger.ms=7\n");
    TailConfig c =
        parse(
            "tail",
            "--glob",
            dir + "/*.log",
            "--deployment",
            "dep",
            "--checkpoint-dir",
            dir.resolve("cp").toString(),
            "--poll-interval",
            "PT0.5S",
            "--shutdown-timeout",
            "1m",
            "--kafka-properties-file",
            props.toString(),
            "--producer-property",
            "linger.ms=9");
    assertThat(c.pollInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.producerProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("linger.ms", "9");
  }

  @Test
  void isRegisteredWithHelp() {
    StringWriter out = new StringWriter();
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("tail", "--help")).isZero();
    assertThat(out.toString()).contains("--checkpoint-dir", "--exit-when-idle", "SPECWATCH_GLOB");
  }
}
