package io.specwatch.ingest.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromTextParserTest {

  static String resource(String name) {
    try (InputStream in = PromTextParserTest.class.getResourceAsStream("/scrape/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void parsesRealLookingVllmMetrics() {
    List<PromSample> samples = PromTextParser.parse(resource("vllm-metrics-1.txt"));

    assertThat(samples).hasSize(14);
    PromSample pos2 =
        samples.stream().filter(s -> "2".equals(s.label("position"))).findFirst().orElseThrow();
    assertThat(pos2.name()).isEqualTo("vllm:spec_decode_num_accepted_tokens_per_pos_total");
    assertThat(pos2.labels())
        .containsExactly(
            Map.entry("engine", "0"),
            Map.entry("model_name", "moonshotai/Kimi-K2.5"),
            Map.entry("position", "2"));
    assertThat(pos2.value()).isEqualTo(400.0);
    assertThat(pos2.valueText()).isEqualTo("400.0");
    assertThat(pos2.timestampMs()).isNull();
    PromSample created =
        samples.stream()
            .filter(s -> s.name().equals("vllm:spec_decode_num_drafts_created"))
            .findFirst()
            .orElseThrow();
    assertThat(created.value()).isEqualTo(1.7642e9);
    PromSample inf =
        samples.stream().filter(s -> "+Inf".equals(s.label("le"))).findFirst().orElseThrow();
    assertThat(inf.value()).isEqualTo(57.0);
  }

  @Test
  void parsesSglangMetricsWithNan() {
    List<PromSample> samples = PromTextParser.parse(resource("sglang-metrics.txt"));

    assertThat(samples).hasSize(6);
    assertThat(samples.get(2).name()).isEqualTo("sglang:spec_accept_length");
    assertThat(samples.get(2).value()).isEqualTo(2.85);
    assertThat(samples.get(2).label("tp_rank")).isEqualTo("0");
    assertThat(samples.get(5).value()).isNaN();
    assertThat(samples.get(5).valueText()).isEqualTo("NaN");
  }

  @Test
  void unescapesLabelValuesAndReadsTimestampsAndInfinities() {
    List<PromSample> samples =
        PromTextParser.parse(
            "# a comment\n"
                + "m{path=\"C:\\\\dir\",msg=\"say \\\"hi\\\"\\nbye\",} +Inf 1712345678901\n"
                + "m_neg -Inf\r\n"
                + "  \n"
                + "bare 3.5e-2\n"
                + "spaced { a = \"1\" , b=\"{}=,\" } 7\n");

    assertThat(samples).hasSize(4);
    PromSample m = samples.get(0);
    assertThat(m.labels()).containsEntry("path", "C:\\dir").containsEntry("msg", "say \"hi\"\nbye");
    assertThat(m.value()).isInfinite().isPositive();
    assertThat(m.timestampMs()).isEqualTo(1712345678901L);
    assertThat(samples.get(1).value()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(samples.get(2).labels()).isEmpty();
    assertThat(samples.get(2).value()).isEqualTo(0.035);
    assertThat(samples.get(3).labels()).containsEntry("a", "1").containsEntry("b", "{}=,");
  }

  @Test
  void rejectsMalformedLinesWithTheLineNumber() {
    assertThatThrownBy(() -> PromTextParser.parse("ok 1\nbad{a=\"x} 1\n"))
        .hasMessage("metrics line 2: unterminated value of label a");
    assertThatThrownBy(() -> PromTextParser.parse("m Infinity"))
        .hasMessage("metrics line 1: bad value 'Infinity'");
    assertThatThrownBy(() -> PromTextParser.parse("m{a=1} 2"))
        .hasMessage("metrics line 1: expected '\"' to open label a");
    assertThatThrownBy(() -> PromTextParser.parse("m"))
        .hasMessage("metrics line 1: missing value for m");
    assertThatThrownBy(() -> PromTextParser.parse("m 1 2 3"))
        .hasMessage("metrics line 1: unexpected text after value: '1 2 3'");
    assertThatThrownBy(() -> PromTextParser.parse("{a=\"b\"} 1"))
        .hasMessageStartingWith("metrics line 1: expected a metric name");
  }
}
