package io.specwatch.sink.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The sinks app's log4j2.xml: with {@code specwatch.log.format=json} or {@code
 * SPECWATCH_LOG_FORMAT=json} it writes one JSON object per line, otherwise the text pattern.
 */
class JsonLogFormatTest {

  /** Logs one line with MDC context; run in a child JVM by the test. */
  public static void main(String[] args) {
    Logger log = LoggerFactory.getLogger("io.specwatch.sink.Probe");
    MDC.put("deployment", "kimi-eagle3");
    log.info("inserted table={} rows={}", "decode_events", 300);
  }

  @Test
  void systemPropertySwitchesToJsonLinesWithLevelMessageAppAndContext() throws Exception {
    assertJsonLine(stderrLines(List.of("-Dspecwatch.log.format=json"), Map.of()));
  }

  @Test
  void environmentVariableSwitchesToJsonLines() throws Exception {
    assertJsonLine(stderrLines(List.of(), Map.of("SPECWATCH_LOG_FORMAT", "json")));
  }

  @Test
  void withoutTheSwitchTheLineIsText() throws Exception {
    List<String> lines = stderrLines(List.of(), Map.of());
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .doesNotStartWith("{")
        .contains("INFO")
        .endsWith("inserted table=decode_events rows=300");
  }

  private static void assertJsonLine(List<String> lines) throws Exception {
    assertThat(lines).hasSize(1);
    JsonNode json = new ObjectMapper().readTree(lines.get(0));
    assertThat(json.get("log.level").asText()).isEqualTo("INFO");
    assertThat(json.get("message").asText()).isEqualTo("inserted table=decode_events rows=300");
    assertThat(json.get("app").asText()).isEqualTo("sinks");
    assertThat(json.get("log.logger").asText()).isEqualTo("io.specwatch.sink.Probe");
    assertThat(json.get("deployment").asText()).isEqualTo("kimi-eagle3");
    assertThat(json.get("@timestamp").asText()).endsWith("Z");
  }

  private static List<String> stderrLines(List<String> jvmOptions, Map<String, String> env)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), JsonLogFormatTest.class.getName()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("SPECWATCH_LOG_FORMAT");
    builder.environment().putAll(env);
    Process p = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return stderr.lines().filter(l -> !l.isBlank()).toList();
  }
}
