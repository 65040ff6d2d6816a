package io.specwatch.streams.logging;

import io.specwatch.testkit.JsonLogFormatCheck;
import io.specwatch.testkit.JsonLogFormatCheck.Probe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The streams-app app's log4j2.xml: with {@code specwatch.log.format=json} or {@code
 * SPECWATCH_LOG_FORMAT=json} it writes one JSON object per line, otherwise the text pattern ({@link
 * JsonLogFormatCheck}).
 */
class JsonLogFormatTest {
  private static final Probe PROBE =
      new Probe(
          "streams-app",
          "io.specwatch.streams.Probe",
          "window closed deployment=kimi-eagle3 windowStart=2026-03-14T02:16:00Z",
          "kimi-eagle3");

  /** Logs one line with MDC context; run in a child JVM by the test. */
  public static void main(String[] args) {
    Logger log = LoggerFactory.getLogger(PROBE.logger());
    MDC.put("deployment", PROBE.deployment());
    log.info("window closed deployment={} windowStart={}", "kimi-eagle3", "2026-03-14T02:16:00Z");
  }

  @Test
  void systemPropertySwitchesToJsonLinesWithLevelMessageAppAndContext() throws Exception {
    JsonLogFormatCheck.assertJsonLine(
        JsonLogFormatCheck.stderrLines(
            JsonLogFormatTest.class, List.of("-Dspecwatch.log.format=json"), Map.of()),
        PROBE);
  }

  @Test
  void environmentVariableSwitchesToJsonLines() throws Exception {
    JsonLogFormatCheck.assertJsonLine(
        JsonLogFormatCheck.stderrLines(
            JsonLogFormatTest.class, List.of(), Map.of("SPECWATCH_LOG_FORMAT", "json")),
        PROBE);
  }

  @Test
  void withoutTheSwitchTheLineIsText() throws Exception {
    JsonLogFormatCheck.assertTextLine(
        JsonLogFormatCheck.stderrLines(JsonLogFormatTest.class, List.of(), Map.of()), PROBE);
  }
}
