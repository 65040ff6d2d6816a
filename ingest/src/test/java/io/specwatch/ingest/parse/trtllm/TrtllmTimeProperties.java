package io.specwatch.ingest.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The hand-read TensorRT-LLM timestamp equals what the formatters it replaced read (null when none
 * could), on timestamp-shaped texts with in-range and out-of-range fields and on arbitrary strings.
 */
class TrtllmTimeProperties {

  @Property(tries = 5000)
  void sameAsFormatters(@ForAll("times") String text) {
    assertThat(TrtllmIterationStatsParser.parseTime(text))
        .isEqualTo(TrtllmIterationStatsParser.formatterTime(text));
  }

  @Property(tries = 1000)
  void sameAsFormattersOnArbitraryStrings(@ForAll String text) {
    assertThat(TrtllmIterationStatsParser.parseTime(text))
        .isEqualTo(TrtllmIterationStatsParser.formatterTime(text));
  }

  @Example
  void readsTheEngineLayout() {
    assertThat(TrtllmIterationStatsParser.parseTime("06-06-2025 09:00:01.123456"))
        .isEqualTo(LocalDateTime.of(2025, 6, 6, 9, 0, 1, 123_456_000));
  }

  @Provide
  Arbitrary<String> times() {
    Arbitrary<String> two =
        Arbitraries.oneOf(
            Arbitraries.integers().between(0, 32).map(i -> String.format("%02d", i)),
            Arbitraries.strings().numeric().ofLength(2),
            Arbitraries.of("1", "123", "a1", "-1"));
    Arbitrary<String> year =
        Arbitraries.oneOf(
            Arbitraries.integers().between(1990, 2030).map(String::valueOf),
            Arbitraries.strings().numeric().ofMinLength(3).ofMaxLength(5));
    Arbitrary<String> fraction =
        Arbitraries.oneOf(
            Arbitraries.just(""),
            Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(10).map(f -> "." + f),
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(3).map(f -> "," + f));
    Arbitrary<String> mdy =
        Combinators.combine(two, two, year, Arbitraries.of(" ", "T", "  "))
            .as((m, d, y, s) -> m + "-" + d + "-" + y + s);
    Arbitrary<String> ymd =
        Combinators.combine(year, two, two, Arbitraries.of(" ", "T"))
            .as((y, m, d, s) -> y + "-" + m + "-" + d + s);
    Arbitrary<String> date = Arbitraries.oneOf(mdy, ymd);
    Arbitrary<String> pad = Arbitraries.of("", " ", "\t");
    return Combinators.combine(pad, date, two, two, two, fraction, pad)
        .as((p, d, h, mi, s, f, q) -> p + d + h + ":" + mi + ":" + s + f + q);
  }
}
