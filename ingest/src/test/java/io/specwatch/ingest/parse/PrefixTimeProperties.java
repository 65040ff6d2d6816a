package io.specwatch.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The hand-read prefix time of {@link PrefixParser#parseTime} equals {@code LocalDateTime.parse}
 * with the formatter it replaced on every text the prefix regex lets through, including values out
 * of range (the formatter's SMART resolution or its error decides those).
 */
class PrefixTimeProperties {

  @Property(tries = 5000)
  void sameAsFormatter(@ForAll("times") String text) {
    LocalDateTime expected;
    try {
      expected = LocalDateTime.parse(text, PrefixParser.TIME);
    } catch (DateTimeException e) {
      assertThatThrownBy(() -> PrefixParser.parseTime(text)).isInstanceOf(DateTimeException.class);
      return;
    }
    assertThat(PrefixParser.parseTime(text)).isEqualTo(expected);
  }

  @Example
  void readsTheCommonForms() {
    assertThat(PrefixParser.parseTime("2025-10-20 09:00:01"))
        .isEqualTo(LocalDateTime.of(2025, 10, 20, 9, 0, 1));
    assertThat(PrefixParser.parseTime("2025-10-20T09:00:01.5"))
        .isEqualTo(LocalDateTime.of(2025, 10, 20, 9, 0, 1, 500_000_000));
    assertThat(PrefixParser.parseTime("2024-02-29 23:59:59,123456789"))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_789));
  }

  @Provide
  Arbitrary<String> times() {
    Arbitrary<String> year =
        Arbitraries.oneOf(
            Arbitraries.integers().between(1990, 2030).map(i -> String.format("%04d", i)),
            Arbitraries.strings().numeric().ofLength(4));
    Arbitrary<String> two =
        Arbitraries.oneOf(
            Arbitraries.integers().between(0, 31).map(i -> String.format("%02d", i)),
            Arbitraries.strings().numeric().ofLength(2));
    Arbitrary<String> sep = Arbitraries.of(" ", "T");
    Arbitrary<String> fraction =
        Arbitraries.oneOf(
            Arbitraries.just(""),
            Combinators.combine(
                    Arbitraries.of(".", ","),
                    Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(9))
                .as((a, b) -> a + b));
    return Combinators.combine(year, two, two, sep, two, two, two, fraction)
        .as(
            (y, mo, d, s, h, mi, se, f) ->
                y + "-" + mo + "-" + d + s + h + ":" + mi + ":" + se + f);
  }
}
