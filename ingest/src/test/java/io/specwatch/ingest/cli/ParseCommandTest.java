package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.samples.SampleLogsTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ParseCommandTest {

  @Test
  void printsOneJsonObjectPerRecognisedLineAndASummary() throws Exception {
    CommandLine cli = IngestCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    String file = SampleLogsTest.DIR.resolve("kimi-eagle3.log").toString();

    int code = cli.execute("parse", "--deployment", "kimi-eagle3", file);

    assertThat(code).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines)
        .hasSize((int) (SampleLogsTest.EAGLE3_RECOGNISED + SampleLogsTest.EAGLE3_CONTEXT_LINES));
    JsonNode context = new ObjectMapper().readTree(lines[0]);
    assertThat(context.get("record").asText()).isEqualTo("RunContext");
    assertThat(context.get("line").asLong()).isEqualTo(1);
    assertThat(context.get("specMethod").asText()).isEqualTo("EAGLE3");
    assertThat(context.get("observedAt").asText()).isEqualTo("2025-10-20T09:00:00Z");
    JsonNode first = new ObjectMapper().readTree(lines[1]);
    assertThat(first.get("runContextId").asText()).isEqualTo(context.get("contextId").asText());
    assertThat(first.get("line").asLong()).isEqualTo(10);
    assertThat(first.get("engine").asText()).isEqualTo("SGLANG");
    assertThat(first.get("format").asText()).isEqualTo("sglang.decode_batch");
    assertThat(first.get("deploymentId").asText()).isEqualTo("kimi-eagle3");
    assertThat(first.get("eventTime").asText()).isEqualTo("2025-10-20T09:01:11Z");
    assertThat(first.get("acceptLength").asDouble()).isEqualTo(1.89);
    assertThat(first.get("rawAcceptRate").asDouble()).isEqualTo(0.44);
    // the default --raw-fields UNTYPED: only the printed fields no typed field holds
    assertThat(first.get("rawFields").has("accept rate")).isFalse();
    assertThat(first.get("rawFields").get("#token").asText()).isEqualTo("459");
    assertThat(err.toString())
        .contains("lines=364 recognised=320 dead-lettered=2 unrecognised=42")
        .contains(":206: dead letter (ParseFailure): accept len is not a finite number: 'nan'");
  }

  @Test
  void missingFileExitsNonZero() {
    CommandLine cli = IngestCli.newCommandLine();
    cli.setErr(new PrintWriter(new StringWriter()));
    assertThat(cli.execute("parse", "/nonexistent/file.log")).isNotZero();
  }

  @Test
  void shipWithoutDeploymentFailsFast() {
    CommandLine cli = IngestCli.newCommandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err));
    String file = SampleLogsTest.DIR.resolve("kimi-eagle3.log").toString();
    assertThat(cli.execute("ship", "--file", file)).isNotZero();
    assertThat(err.toString()).contains("deployment");
  }
}
