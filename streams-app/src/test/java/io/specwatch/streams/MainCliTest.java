package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Exit codes of the streams CLI for bad settings, which fail before any broker is contacted. */
class MainCliTest {
  @TempDir Path dir;

  private static int run(String... args) {
    return new CommandLine(new Main()).execute(args);
  }

  /** {@code reset} on this test's state dir and an address nobody listens on, then {@code more}. */
  private int reset(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of("reset", "--bootstrap", "127.0.0.1:1", "--state-dir", dir.toString()));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  @Test
  void resetExitsTwoOnAnUnreadableKafkaPropertiesFile() {
    assertThat(reset("--kafka-properties-file", dir.resolve("missing.properties").toString()))
        .isEqualTo(2);
  }

  @Test
  void resetExitsTwoOnABadDatetime() {
    assertThat(reset("--to-datetime", "yesterday")).isEqualTo(2);
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
