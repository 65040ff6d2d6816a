package io.specwatch.ingest.parse.trtllm;

import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.assertSame;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import java.util.List;
import net.jqwik.api.Example;

/**
 * The fast path of {@link TrtllmIterationStatsParser} ({@link IterationStatsScan}, its numbers read
 * by {@link JsonTokenScan}) prints plain numbers as Jackson's tree does, and gives the same {@link
 * ParseResult} as the Jackson path for them.
 */
class TrtllmFastPathNumberProperties {

  /**
   * Every number of up to 4 significant digits written plainly (up to 3 trailing zeros, both signs,
   * integer and fraction parts of any length that JSON allows), as a typed and a raw field: the
   * printed text the fast path builds without {@link Double#toString} is that one's (on the JDK
   * running the tests).
   */
  @Example
  void plainNumbersPrintAsJackson() {
    int fast = 0;
    int all = 0;
    for (int m = 0; m < 10_000; m++) {
      String digits = Integer.toString(m);
      for (int scale = 0; scale <= digits.length() + 4; scale++) {
        String plain;
        if (scale == 0) {
          plain = digits;
        } else if (scale < digits.length()) {
          plain =
              digits.substring(0, digits.length() - scale)
                  + "."
                  + digits.substring(digits.length() - scale);
        } else {
          plain = "0." + "0".repeat(scale - digits.length()) + digits;
        }
        for (String zeros : List.of("", "0", "000")) {
          String text = plain + (zeros.isEmpty() || plain.contains(".") ? zeros : "." + zeros);
          String line =
              "{\"iterLatencyMS\": " + text + ", \"x\": -" + text + ", \"y\": " + text + "e0}";
          all++;
          if (assertSame(line)) {
            fast++;
          }
        }
      }
    }
    assertThat(fast).isGreaterThan(all / 2);
  }
}
