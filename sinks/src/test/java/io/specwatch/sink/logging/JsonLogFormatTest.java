package io.specwatch.sink.logging;

import io.specwatch.testkit.JsonLogFormatCheck;
import io.specwatch.testkit.JsonLogFormatCheck.Probe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The sinks app's log4j2.xml: with {@code specwatch.log.format=json} or {@code
 * SPECWATCH_LOG_FORMAT=json} it writes one JSON object per line, otherwise the text pattern ({@link
 * JsonLogFormatCheck}).
 */
class JsonLogFormatTest {
  private static final Probe PROBE =
      new Probe(
          "sinks",
          "io.specwatch.sink.Probe",
          "inserted table=decode_events rows=300",
          "kimi-eagle3");

  /** Logs one line with MDC context; run in a child JVM by the test. */
  public static void main(String[] args) {
    Logger log = LoggerFactory.getLogger(PROBE.logger());
    MDC.put("deployment", PROBE.deployment());
    log.info("inserted table={} rows={}", "decode_events", 300);
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
