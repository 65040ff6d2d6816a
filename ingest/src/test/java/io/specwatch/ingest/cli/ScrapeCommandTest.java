package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.ingest.scrape.ScrapeConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ScrapeCommandTest {

  private static ScrapeConfig parse(String... args) {
    CommandLine.ParseResult parsed = IngestCli.newCommandLine().parseArgs(args);
    ScrapeCommand cmd = (ScrapeCommand) parsed.subcommand().commandSpec().userObject();
    return cmd.toConfig(Map.of());
  }

  private static final String[] REQUIRED = {
    "scrape", "--url", "http://gpu-3:8000/metrics", "--deployment", "dep"
  };

  private static String[] with(String... more) {
    String[] all = new String[REQUIRED.length + more.length];
    System.arraycopy(REQUIRED, 0, all, 0, REQUIRED.length);
    System.arraycopy(more, 0, all, REQUIRED.length, more.length);
    return all;
  }

  @Test
  void shutdownTimeoutDefaultsToThirtySecondsAsForTail() {
    assertThat(parse(REQUIRED).shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(parse(with("--shutdown-timeout", "5s")).shutdownTimeout())
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(parse(with("--shutdown-timeout", "PT1M")).shutdownTimeout())
        .isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void aNegativeShutdownTimeoutFailsNamingTheSetting() {
    assertThatThrownBy(() -> parse(with("--shutdown-timeout", "-PT5S")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "setting 'shutdown-timeout' (SPECWATCH_SHUTDOWN_TIMEOUT) must be >= 0, was PT-5S");
  }

  @Test
  void helpListsTheOptionWithItsEnvVariable() {
    StringWriter out = new StringWriter();
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("scrape", "--help")).isZero();
    assertThat(out.toString()).contains("--shutdown-timeout", "SPECWATCH_SHUTDOWN_TIMEOUT");
  }
}
