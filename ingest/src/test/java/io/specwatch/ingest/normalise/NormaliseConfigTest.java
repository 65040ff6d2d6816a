package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class NormaliseConfigTest {

  @Test
  void rejectsBadSettingsNamingThem() {
    assertThatThrownBy(() -> NormaliseConfig.defaults().withDecodeLogInterval(0))
        .hasMessageContaining("decode-log-interval");
    assertThatThrownBy(
            () ->
                new NormaliseConfig(
                    40, ZoneId.of("UTC"), AcceptRateDefinition.ACCEPTED_OVER_DRAFTED, 0))
        .hasMessageContaining("speculative-num-steps");
    assertThatThrownBy(() -> new SourceContext(" ", "h", "s", "i"))
        .hasMessageContaining("deployment");
  }
}
