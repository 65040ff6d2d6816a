package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Exit codes of the streams CLI for bad settings, which fail before any broker is contacted. */
class MainCliTest {
  @TempDir Path dir;

  private static int run(String... args) {
    return new CommandLine(new Main()).execute(args);
  }

  @Test
  void resetExitsTwoOnAnUnreadableKafkaPropertiesFile() {
    assertThat(
            run(
                "reset",
                "--bootstrap",
                "127.0.0.1:1",
                "--state-dir",
                dir.toString(),
                "--kafka-properties-file",
                dir.resolve("missing.properties").toString()))
        .isEqualTo(2);
  }

  @Test
  void resetExitsTwoOnABadDatetime() {
    assertThat(
            run(
                "reset",
                "--bootstrap",
                "127.0.0.1:1",
                "--state-dir",
                dir.toString(),
                "--to-datetime",
                "yesterday"))
        .isEqualTo(2);
  }

  @Test
  void runExitsTwoOnAZeroWindowAndOnAnUnreadableKafkaPropertiesFile() {
    assertThat(run("run", "--bootstrap", "127.0.0.1:1", "--window", "0s")).isEqualTo(2);
    assertThat(
            run(
                "run",
                "--bootstrap",
                "127.0.0.1:1",
                "--kafka-properties-file",
                dir.resolve("missing.properties").toString()))
        .isEqualTo(2);
  }
}
