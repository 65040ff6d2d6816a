package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GenerateCommandTest {

  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  @Test
  void writesAFleetAndItsManifest() throws Exception {
    Path dir = tmp.resolve("fleet");
    int rc =
        run(
            "generate",
            "--scenario",
            "fleet",
            "--deployments",
            "12",
            "--duration",
            "1m",
            "--seed",
            "3",
            "--out",
            dir.toString());
    assertThat(rc).as(err.toString()).isZero();
    assertThat(out.toString()).contains("generated fleet: deployments=12");
    JsonNode manifest = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
    assertThat(manifest.path("seed").asLong()).isEqualTo(3);
    assertThat(manifest.path("deployments")).hasSize(12);
    assertThat(manifest.path("episodes")).hasSize(12);
    // every deployment on an events partition of its own under Kafka's default partitioner
    int partitions = manifest.path("separatingPartitions").asInt();
    assertThat(partitions).isGreaterThanOrEqualTo(12);
    Set<Integer> used = new HashSet<>();
    manifest
        .path("deployments")
        .forEach(
            d ->
                used.add(
                    Utils.toPositive(
                            Utils.murmur2(d.path("id").asText().getBytes(StandardCharsets.UTF_8)))
                        % partitions));
    assertThat(used).hasSize(12);
    for (JsonNode d : manifest.path("deployments")) {
      Path log = dir.resolve(d.path("id").asText()).resolve("engine.log");
      assertThat(log).exists();
      assertThat(Files.readAllLines(log)).hasSize(d.path("lines").path("engine.log").asInt());
      assertThat(d.path("segments").get(0).path("truth").path("tau").asDouble())
          .isGreaterThanOrEqualTo(1.0);
      // the manifest's shipArgs are options the shipper accepts
      List<String> args = new ArrayList<>(List.of("ship", "--file", log.toString()));
      d.path("shipArgs").forEach(a -> args.add(a.asText()));
      assertThat(args).contains("--deployment", d.path("id").asText(), "--hardware-class");
      new CommandLine(new IngestCli()).parseArgs(args.toArray(String[]::new));
    }
  }

  @Test
  void badSettingsFailNamingTheSetting() {
    assertThat(run("generate", "--scenario", "nope", "--out", tmp.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--scenario");
    assertThat(run("generate", "--duration", "1m")).isEqualTo(2);
    assertThat(err.toString()).contains("--out DIR, --publish");
    assertThat(run("generate", "--start", "yesterday", "--out", tmp.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--start");
    assertThat(run("generate", "--duration", "0s", "--out", tmp.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--duration");
    assertThat(
            run("generate", "--scenario", "fleet", "--deployments", "0", "--out", tmp.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--deployments");
    assertThat(run("generate", "--only", "kimi-k25-eagle3,nope", "--out", tmp.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--only: no deployment 'nope'");
    assertThat(run("generate", "--realtime", "--speed", "-1", "--out", tmp.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--speed");
  }
}
