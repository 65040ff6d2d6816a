package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The checks of an app's log4j2.xml JSON switch ({@code specwatch.log.format=json} or {@code
 * SPECWATCH_LOG_FORMAT=json}), shared by the apps' {@code JsonLogFormatTest}s: each runs its own
 * probe class (a {@code main} that logs one line with MDC {@code deployment}) in a child JVM on the
 * module's test class path, so the module's own log4j2.xml is the one read.
 */
public final class JsonLogFormatCheck {
  /**
   * What the probe logs.
   *
   * @param app the {@code app} field of the JSON line
   * @param logger the probe's logger name
   * @param message the formatted message
   * @param deployment the MDC {@code deployment} value
   */
  public record Probe(String app, String logger, String message, String deployment) {}

  private JsonLogFormatCheck() {}

  /** The non-blank stderr lines of {@code probeMain} run with these JVM options and env. */
  public static List<String> stderrLines(
      Class<?> probeMain, List<String> jvmOptions, Map<String, String> env) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), probeMain.getName()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("SPECWATCH_LOG_FORMAT");
    builder.environment().putAll(env);
    Process p = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return stderr.lines().filter(l -> !l.isBlank()).toList();
  }

  /** One JSON line with level, message, app, logger, the MDC value and a UTC timestamp. */
  public static void assertJsonLine(List<String> lines, Probe probe) throws Exception {
    assertThat(lines).hasSize(1);
    JsonNode json = new ObjectMapper().readTree(lines.get(0));
    assertThat(json.get("log.level").asText()).isEqualTo("INFO");
    assertThat(json.get("message").asText()).isEqualTo(probe.message());
    assertThat(json.get("app").asText()).isEqualTo(probe.app());
    assertThat(json.get("log.logger").asText()).isEqualTo(probe.logger());
    assertThat(json.get("deployment").asText()).isEqualTo(probe.deployment());
    assertThat(json.get("@timestamp").asText()).endsWith("Z");
  }

  /** One text line (not JSON) at INFO ending with the message. */
  public static void assertTextLine(List<String> lines, Probe probe) {
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).doesNotStartWith("{").contains("INFO").endsWith(probe.message());
  }
}
