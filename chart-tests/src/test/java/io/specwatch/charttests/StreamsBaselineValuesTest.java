package io.specwatch.charttests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The streams options `--static-baseline` and `--baseline-max-age` reach the streams ConfigMap. */
class StreamsBaselineValuesTest {
  @Test
  void staticBaselinesAreJoinedForTheCommaSplitOption() {
    JsonNode cm =
        Chart.render(
                """
                streams:
                  staticBaselines:
                    - "kimi-k2.5|8xH100-PCIe|8|1=12.2"
                    - "kimi-k2.5|8xH100-PCIe|8|*=14"
                  baselineMaxAge: 30m
                topics:
                  runContext: ctx.v2
                """)
            .get("ConfigMap", Chart.FULLNAME + "-streams")
            .path("data");
    assertThat(cm.path("SPECWATCH_STATIC_BASELINES").asText())
        .isEqualTo("kimi-k2.5|8xH100-PCIe|8|1=12.2,kimi-k2.5|8xH100-PCIe|8|*=14");
    assertThat(cm.path("SPECWATCH_BASELINE_MAX_AGE").asText()).isEqualTo("30m");
    assertThat(cm.path("SPECWATCH_TOPIC_RUN_CONTEXT").asText()).isEqualTo("ctx.v2");
  }

  @Test
  void aMalformedStaticBaselineFailsTheSchema() {
    assertThatThrownBy(() -> Chart.render("streams:\n  staticBaselines: [\"kimi=12\"]\n"))
        .hasMessageContaining("values don't meet the specifications of the schema");
  }
}
