package io.specwatch.ingest.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The vLLM field reads after round 9 give what {@code ReferenceVllmFields} gave (numbers, counts,
 * lists and the error, doubles by bits), the known field slots agree with their names, and a plain
 * number read by hand is the double {@link Double#parseDouble} returns.
 */
class VllmFastParseNumberProperties {

  @Property(tries = 5000)
  void fieldReadsAsBefore(@ForAll("numbers") String value, @ForAll("units") String unit) {
    String list =
        "Accepted: " + value + unit + ", Per-position acceptance rate: " + value + ", " + value;
    VllmFields f = VllmFields.colonList(list);
    ReferenceVllmFields g = ReferenceVllmFields.colonList(list);
    assertThat(
            List.of(
                String.valueOf(f.number("Accepted", true)),
                String.valueOf(f.count("Accepted", true)),
                String.valueOf(f.smallCount("Accepted", false)),
                String.valueOf(f.numberList("Per-position acceptance rate")),
                String.valueOf(f.error())))
        .as(list)
        .isEqualTo(
            List.of(
                String.valueOf(g.number("Accepted", true)),
                String.valueOf(g.count("Accepted", true)),
                String.valueOf(g.smallCount("Accepted", false)),
                String.valueOf(g.numberList("Per-position acceptance rate")),
                String.valueOf(g.error())));
    // doubles compared by bits too (String.valueOf would not tell every difference)
    Double a = VllmFields.colonList(list).number("Accepted", false);
    Double b = ReferenceVllmFields.colonList(list).number("Accepted", false);
    assertThat(a == null ? null : Double.doubleToRawLongBits(a))
        .isEqualTo(b == null ? null : Double.doubleToRawLongBits(b));
    String text = value + unit;
    Statistics.label("plain")
        .collect(VllmFieldScans.plainNumber(text, 0, VllmFieldScans.valueEnd(text)) >= 0);
    Statistics.label("plain")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 20);
              c.check(false).percentage(p -> p > 20);
            });
  }

  @Example
  void knownSlotsAgreeWithTheirNames() {
    for (int slot = 0; slot < VllmKnownFields.KNOWN.length; slot++) {
      assertThat(VllmKnownFields.slot(VllmKnownFields.KNOWN[slot])).isEqualTo(slot);
      assertThat(VllmKnownFields.slot(new String(VllmKnownFields.KNOWN[slot]))).isEqualTo(slot);
    }
    assertThat(VllmKnownFields.slot("Accepted ")).isEqualTo(-1);
  }

  @Example
  void plainNumbersEqualParseDouble() {
    java.util.Random random = new java.util.Random(42);
    for (int i = 0; i < 200_000; i++) {
      int intDigits = 1 + random.nextInt(15);
      int fracDigits = random.nextInt(16 - intDigits);
      StringBuilder sb = new StringBuilder();
      for (int d = 0; d < intDigits; d++) {
        sb.append((char) ('0' + random.nextInt(10)));
      }
      if (fracDigits > 0) {
        sb.append('.');
        for (int d = 0; d < fracDigits; d++) {
          sb.append((char) ('0' + random.nextInt(10)));
        }
      }
      String text = sb.toString();
      double v = VllmFieldScans.plainNumber(text, 0, text.length());
      assertThat(Double.doubleToRawLongBits(v))
          .as(text)
          .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(text)));
    }
  }

  @Provide
  Arbitrary<String> numbers() {
    return VllmPieceArbitraries.numbers();
  }

  @Provide
  Arbitrary<String> units() {
    return VllmPieceArbitraries.units();
  }
}
