package io.specwatch.ingest.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScrapeConfigTest {

  @Test
  void parsesIntervals() {
    assertThat(ScrapeConfig.parseInterval("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(ScrapeConfig.parseInterval("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(ScrapeConfig.parseInterval("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(ScrapeConfig.parseInterval("PT15S")).isEqualTo(Duration.ofSeconds(15));
    assertThatThrownBy(() -> ScrapeConfig.parseInterval("soon"))
        .hasMessageStartingWith("setting 'interval' (SPECWATCH_SCRAPE_INTERVAL)");
  }

  @Test
  void parsesEngine() {
    assertThat(ScrapeEngine.parse("vLLM")).isEqualTo(ScrapeEngine.VLLM);
    assertThat(ScrapeEngine.parse("auto")).isEqualTo(ScrapeEngine.AUTO);
    assertThatThrownBy(() -> ScrapeEngine.parse("trt"))
        .hasMessage("setting 'engine' must be vllm, sglang or auto, was 'trt'");
  }
}
