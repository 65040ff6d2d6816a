package io.specwatch.ingest.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The app's log4j2.xml with specwatch.log.format=json writes one JSON object per line. */
class JsonLogFormatTest {

  /** Logs one line with MDC context; run in a child JVM by the test. */
  public static void main(String[] args) {
    Logger log = LoggerFactory.getLogger("io.specwatch.ingest.Probe");
    MDC.put("deployment", "kimi-eagle3");
    log.info("shipped file={} lines={}", "a.log", 3);
  }

  @Test
  void jsonLinesCarryLevelMessageAppAndContext() throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dspecwatch.log.format=json",
                "-cp",
                System.getProperty("java.class.path"),
                JsonLogFormatTest.class.getName())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> lines =
        new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
            .lines()
            .filter(l -> !l.isBlank())
            .toList();
    assertThat(lines).hasSize(1);
    JsonNode json = new ObjectMapper().readTree(lines.get(0));
    assertThat(json.get("log.level").asText()).isEqualTo("INFO");
    assertThat(json.get("message").asText()).isEqualTo("shipped file=a.log lines=3");
    assertThat(json.get("app").asText()).isEqualTo("ingest");
    assertThat(json.get("log.logger").asText()).isEqualTo("io.specwatch.ingest.Probe");
    assertThat(json.get("deployment").asText()).isEqualTo("kimi-eagle3");
    assertThat(json.get("@timestamp").asText()).endsWith("Z");
  }
}
