package io.specwatch.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class PrefixParserTest {

  @Test
  void readsTimeAndTensorRank() {
    PrefixParser.Split s = PrefixParser.split("[2025-03-14 02:16:14 TP0] Decode batch. x");
    assertThat(s.prefix())
        .isEqualTo(new LinePrefix(LocalDateTime.of(2025, 3, 14, 2, 16, 14), "TP0", 0, null, null));
    assertThat(s.body()).isEqualTo("Decode batch. x");
    assertThat(s.error()).isNull();
  }

  @Test
  void readsDataParallelAndExpertRanks() {
    assertThat(PrefixParser.split("[2025-03-14 02:16:14 DP3 TP3] b").prefix())
        .isEqualTo(new LinePrefix(LocalDateTime.of(2025, 3, 14, 2, 16, 14), "DP3 TP3", 3, 3, null));
    assertThat(PrefixParser.split("[2025-03-14 02:16:14 TP0 EP0] b").prefix())
        .isEqualTo(new LinePrefix(LocalDateTime.of(2025, 3, 14, 2, 16, 14), "TP0 EP0", 0, null, 0));
  }

  @Test
  void readsTimeWithoutRank() {
    PrefixParser.Split s = PrefixParser.split("[2026-04-05 20:02:51] Decode batch, x");
    assertThat(s.prefix().timestamp()).isEqualTo(LocalDateTime.of(2026, 4, 5, 20, 2, 51));
    assertThat(s.prefix().rank()).isNull();
    assertThat(s.prefix().rankKey()).isEmpty();
    assertThat(s.body()).isEqualTo("Decode batch, x");
  }

  @Test
  void noPrefixKeepsWholeLine() {
    PrefixParser.Split s = PrefixParser.split("Decode batch. #running-req: 1");
    assertThat(s.prefix()).isEqualTo(LinePrefix.NONE);
    assertThat(s.body()).isEqualTo("Decode batch. #running-req: 1");
  }

  @Test
  void impossibleDateIsAnErrorValue() {
    PrefixParser.Split s = PrefixParser.split("[2025-13-45 02:16:14 TP0] Decode batch.");
    assertThat(s.error()).contains("invalid timestamp");
  }
}
