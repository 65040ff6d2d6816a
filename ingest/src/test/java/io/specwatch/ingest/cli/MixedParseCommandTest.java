package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code parse} over a committed mixed file: SGLang, vLLM v0/V1 and TensorRT-LLM lines. */
class MixedParseCommandTest {

  static final Path MIXED = Path.of("src/test/resources/mixed/mixed-engines.log");

  @Test
  void everyFamilyIsRecognisedInOneFile() throws Exception {
    CommandLine cli = IngestCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));

    int code = cli.execute("parse", "--log-year", "2025", MIXED.toString());

    assertThat(code).isZero();
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> events = new ArrayList<>();
    for (String line : out.toString().split("\n")) {
      events.add(json.readTree(line));
    }
    assertThat(events)
        .extracting(n -> n.get("line").asInt() + " " + n.get("format").asText())
        .containsExactly(
            "4 vllm.v1.engine",
            "5 vllm.v1.spec_decoding.v4",
            "6 vllm.v1.engine",
            "7 vllm.v1.spec_decoding.v2",
            "8 vllm.v1.spec_decoding.v4",
            "10 vllm.v1.spec_decoding.v2",
            "11 vllm.v0.throughput",
            "12 vllm.v0.spec_metrics",
            "13 vllm.v0.throughput",
            "14 vllm.v0.spec_metrics",
            "15 vllm.v0.stage_times",
            "16 sglang.decode_batch",
            "17 trtllm.iteration_stats");
    JsonNode paired = events.get(1);
    assertThat(paired.get("engine").asText()).isEqualTo("VLLM");
    assertThat(paired.get("eventTime").asText()).isEqualTo("2025-06-06T14:20:34Z");
    assertThat(paired.get("rank").asText()).isEqualTo("engine 000");
    assertThat(paired.get("cycleMs").asDouble()).isEqualTo(40.0);
    assertThat(events.get(13 - 1).get("engine").asText()).isEqualTo("TRTLLM");
    assertThat(err.toString())
        .contains("lines=19 recognised=13 dead-lettered=2 unrecognised=4")
        .contains(":9: dead letter (ParseFailure)")
        .contains(":18: dead letter (ParseFailure): invalid JSON");
  }
}
