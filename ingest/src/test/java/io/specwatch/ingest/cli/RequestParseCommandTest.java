package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code parse} over the committed per-request sample (request.v1 and sglang.meta_info). */
class RequestParseCommandTest {

  static final Path SAMPLE = Path.of("src/test/resources/requests/requests.jsonl");

  @Test
  void printsRequestAcceptancesAndDeadLetters() throws Exception {
    CommandLine cli = IngestCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));

    int code = cli.execute("parse", "--deployment", "gw-a", SAMPLE.toString());

    assertThat(code).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines).hasSize(3);
    ObjectMapper json = new ObjectMapper();
    JsonNode first = json.readTree(lines[0]);
    assertThat(first.get("record").asText()).isEqualTo("RequestAcceptance");
    assertThat(first.get("line").asLong()).isEqualTo(1);
    assertThat(first.get("requestId").asText()).isEqualTo("req-1");
    assertThat(first.get("engine").asText()).isEqualTo("INSTRUMENTED");
    assertThat(first.get("finishedAt").asText()).isEqualTo("2026-03-01T12:00:00Z");
    assertThat(first.get("acceptLength").asDouble()).isEqualTo(2.5);
    assertThat(first.get("acceptedTokens").asLong()).isEqualTo(180);
    JsonNode second = json.readTree(lines[1]);
    assertThat(second.get("finishedAt").asText()).isEqualTo("2026-03-01T12:00:01.500Z");
    assertThat(second.get("acceptLength").asDouble()).isEqualTo(1.75);
    JsonNode third = json.readTree(lines[2]);
    assertThat(third.get("engine").asText()).isEqualTo("SGLANG");
    assertThat(third.get("requestId").asText()).isEqualTo("a1b2");
    assertThat(third.get("acceptLength").asDouble()).isEqualTo(3.2);
    assertThat(third.get("rawAcceptRate").asDouble()).isEqualTo(0.55);
    assertThat(err.toString())
        .contains("lines=6 recognised=3 dead-lettered=2 unrecognised=1")
        .contains(":4: dead letter (ParseFailure): invalid JSON")
        .contains(":5: dead letter (ParseFailure): verify_cycles: must be > 0, was 0");
  }
}
