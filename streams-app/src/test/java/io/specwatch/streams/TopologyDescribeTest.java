package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.serde.Topics;
import io.specwatch.streams.alert.AlertConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Golden test: the topology's description equals the checked-in file. A diff here renames state or
 * topics: review it like a migration. Regenerate with {@code -Dgolden.update=true}.
 */
class TopologyDescribeTest {
  private static final Path GOLDEN = Path.of("src/test/resources/topology-describe.txt");

  @Test
  void describeMatchesGoldenFile() throws IOException {
    Map<String, String> serde = Map.of("schema.registry.url", "mock://describe-test");
    String actual =
        TopologyFactory.build(
                new TopologyInputs(
                    "specwatch.decode-events.v1",
                    "specwatch.run-context.v1",
                    "specwatch.window-results.v1",
                    Duration.ofMinutes(1),
                    Duration.ofSeconds(30),
                    StaticBaselines.none(),
                    Duration.ofHours(1),
                    AvroSerde.forClass(DecodeEvent.class, serde, false),
                    AvroSerde.forClass(RunContext.class, serde, false),
                    AvroSerde.forClass(WindowResult.class, serde, false),
                    Topics.ALERTS,
                    AvroSerde.forClass(Alert.class, serde, false),
                    AlertConfig.defaults()))
            .describe()
            .toString();
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
    }
    assertThat(actual).isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
  }
}
