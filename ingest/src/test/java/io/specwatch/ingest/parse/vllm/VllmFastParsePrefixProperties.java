package io.specwatch.ingest.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The hand scans of the vLLM line start find what the regexes before round 9 found: {@link
 * VllmPrefix#split} splits a prefix as {@code ReferenceVllmPrefix} does, and the {@code Engine
 * NNN:} tag is found, ended and read where its regex matches.
 */
class VllmFastParsePrefixProperties {

  @Property(tries = 3000)
  void prefixSplitsAsTheRegex(@ForAll("prefixes") String prefix, @ForAll("cut") int cut) {
    String line =
        (prefix + "Avg prompt throughput: 1.0 tokens/s")
            .substring(0, Math.min(cut, prefix.length() + 34));
    VllmPrefix.Split split = VllmPrefix.split(line);
    ReferenceVllmPrefix.Split ref = ReferenceVllmPrefix.split(line);
    assertThat(
            List.of(
                Objects.toString(split.stamp()),
                Objects.toString(split.processTag()),
                split.body(),
                Objects.toString(split.error())))
        .as(line)
        .isEqualTo(
            List.of(
                Objects.toString(ref.stamp()),
                Objects.toString(ref.processTag()),
                ref.body(),
                Objects.toString(ref.error())));
    Statistics.label("prefix").collect(split.stamp() != null);
    Statistics.label("prefix")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 15);
              c.check(false).percentage(p -> p > 15);
            });
  }

  private static final Pattern ENGINE_TAG = Pattern.compile("Engine (\\d{1,6}):\\s*");

  @Property(tries = 3000)
  void engineTagFoundAsTheRegex(@ForAll("engineTexts") String text) {
    Matcher m = ENGINE_TAG.matcher(text);
    int at = VllmV1Parser.engineTag(text);
    if (!m.find()) {
      assertThat(at).as(text).isEqualTo(-1);
      return;
    }
    assertThat(at).as(text).isEqualTo(m.start());
    assertThat(VllmV1Parser.engineTagEnd(text, at)).isEqualTo(m.end());
    assertThat(VllmV1Parser.engineIndex(text, at)).isEqualTo(Integer.valueOf(m.group(1)));
  }

  @Provide
  Arbitrary<String> prefixes() {
    return VllmPieceArbitraries.prefixes();
  }

  @Provide
  Arbitrary<Integer> cut() {
    return VllmPieceArbitraries.cut();
  }

  @Provide
  Arbitrary<String> engineTexts() {
    return VllmPieceArbitraries.engineTexts();
  }
}
