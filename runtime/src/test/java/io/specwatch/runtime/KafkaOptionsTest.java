package io.specwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class KafkaOptionsTest {

  @TempDir Path dir;

  @Command(name = "app")
  static final class App implements Runnable {
    @Mixin KafkaOptions kafka;

    @Override
    public void run() {}
  }

  private static KafkaOptions parse(String... args) {
    App app = new App();
    new CommandLine(app).parseArgs(args);
    return app.kafka;
  }

  @Test
  void defaultsPointAtTheLocalServices() {
    KafkaOptions k = parse();
    // the test JVM is not started with SPECWATCH_BOOTSTRAP / SPECWATCH_REGISTRY_URL
    if (System.getenv("SPECWATCH_BOOTSTRAP") == null) {
      assertThat(k.bootstrap()).isEqualTo(KafkaOptions.DEFAULT_BOOTSTRAP);
    }
    if (System.getenv("SPECWATCH_REGISTRY_URL") == null) {
      assertThat(k.registryUrl()).isEqualTo(KafkaOptions.DEFAULT_REGISTRY_URL);
    }
    if (System.getenv("SPECWATCH_KAFKA_PROPERTIES_FILE") == null) {
      assertThat(k.rawProperties()).isEmpty();
    }
  }

  @Test
  void propertiesFileLoadedAndFlagsWin() throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(
        file,
        "# SASL\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n"
            + "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"u\" password=\"p\";\n");
    KafkaOptions k =
        parse(
            "--bootstrap",
            "broker:9093",
            "--registry-url",
            "https://registry",
            "--kafka-properties-file",
            file.toString(),
            "-K",
            "sasl.mechanism=SCRAM-SHA-512",
            "--kafka-property",
            "linger.ms=5");
    assertThat(k.bootstrap()).isEqualTo("broker:9093");
    assertThat(k.registryUrl()).isEqualTo("https://registry");
    assertThat(k.rawProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("linger.ms", "5")
        .containsKey("sasl.jaas.config")
        .hasSize(4);
  }

  @Test
  void missingFileFailsFastNamingTheOption() {
    Path missing = dir.resolve("nope.properties");
    KafkaOptions k = parse("--kafka-properties-file", missing.toString());
    assertThatThrownBy(k::rawProperties)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--kafka-properties-file")
        .hasMessageContaining("SPECWATCH_KAFKA_PROPERTIES_FILE")
        .hasMessageContaining(missing.toString());
  }

  @Test
  void aDirectoryIsNotAPropertiesFile() {
    KafkaOptions k = parse("--kafka-properties-file", dir.toString());
    assertThatThrownBy(k::rawProperties).hasMessageContaining("--kafka-properties-file");
  }
}
