package io.specwatch.ingest.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FmtTest {

  @Test
  void formatsFixedDecimals() {
    assertThat(Fmt.f(2, 1.925)).isEqualTo("1.93");
    assertThat(Fmt.f(2, 0.004)).isEqualTo("0.00");
    assertThat(Fmt.f(3, 0.05)).isEqualTo("0.050");
    assertThat(Fmt.f(1, 82.0)).isEqualTo("82.0");
    assertThat(Fmt.f(0, 7.6)).isEqualTo("8");
    assertThat(Fmt.f(2, -1.5)).isEqualTo("-1.50");
    assertThat(Fmt.f(2, -0.001)).isEqualTo("0.00");
  }

  @Property(tries = 2000)
  void readsBackWithinHalfAUnit(
      @ForAll @DoubleRange(min = 0, max = 1e6) double v,
      @ForAll @IntRange(min = 0, max = 4) int d) {
    double back = Double.parseDouble(Fmt.f(d, v));
    assertThat(Math.abs(back - v)).isLessThanOrEqualTo(0.5 / Math.pow(10, d) + 1e-9);
    // same digits as the Formatter except possibly at an exact binary tie
    String formatter = String.format(Locale.ROOT, "%." + d + "f", v);
    assertThat(Math.abs(Double.parseDouble(formatter) - back))
        .isLessThanOrEqualTo(1.0 / Math.pow(10, d) + 1e-9);
  }
}
