package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The text form of a comparison key reads back to the same key, whatever the names hold. */
class ComparisonKeyProperties {

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.strings()
        .withChars("ab|\\ -.:/*")
        .withCharRange('A', 'Z')
        .ofMinLength(1)
        .ofMaxLength(12)
        .filter(s -> !s.isBlank());
  }

  @Provide
  Arbitrary<String> buckets() {
    java.util.List<String> all = new java.util.ArrayList<>(BatchBuckets.NAMES);
    all.add(BatchBuckets.ALL);
    return Arbitraries.of(all);
  }

  @Property
  void parseReadsBackWhatToStringWrote(
      @ForAll("names") String model,
      @ForAll("names") String hardwareClass,
      @ForAll @IntRange(min = 1, max = 1024) int tp,
      @ForAll("buckets") String bucket) {
    ComparisonKey key = new ComparisonKey(model, hardwareClass, tp, bucket);
    ComparisonKey read = ComparisonKey.parse(key.toString());
    assertThat(read).isEqualTo(key);
    assertThat(read.toString()).isEqualTo(key.toString());
    assertThat(key.model()).isEqualTo(model.strip());
  }

  @Example
  void plainNamesKeepTheirFormerText() {
    assertThat(new ComparisonKey("kimi-k2.5", "8xH100", 8, "1").toString())
        .isEqualTo("kimi-k2.5|8xH100|8|1");
    assertThat(new ComparisonKey(" org|m ", "a\\b", 2, "*").toString())
        .isEqualTo("org\\|m|a\\\\b|2|*");
  }

  @Example
  void invalidKeysFailNamingWhatIsWrong() {
    assertThatThrownBy(() -> new ComparisonKey("kimi", "8xH100", 0, "1"))
        .hasMessageContaining("tp must be at least 1");
    assertThatThrownBy(() -> new ComparisonKey("  ", "8xH100", 8, "1"))
        .hasMessageContaining("empty part");
    assertThatThrownBy(() -> ComparisonKey.parse("kimi|8xH100|8|1\\"))
        .hasMessageContaining("must be model|hardwareClass|tp|bucket");
    assertThatThrownBy(() -> ComparisonKey.parse("a|b|c|8|1"))
        .hasMessageContaining("must be model|hardwareClass|tp|bucket");
  }
}
