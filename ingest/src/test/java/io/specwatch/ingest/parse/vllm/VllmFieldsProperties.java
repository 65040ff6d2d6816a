package io.specwatch.ingest.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** {@link VllmFields#colonList}'s index scan against splitting at commas and stripping. */
class VllmFieldsProperties {

  @Property(tries = 3000)
  void colonListReadsWhatSplitAndStripRead(@ForAll("lists") String list) {
    VllmFields scanned = VllmFields.colonList(list);
    Reference expected = Reference.of(list);

    assertThat(scanned.raw()).containsExactlyEntriesOf(expected.raw);
    assertThat(scanned.error()).isEqualTo(expected.error);
  }

  @Example
  void aRealSpecDecodingListKeepsItsPerPositionContinuation() {
    String list =
        "Mean acceptance length: 1.97, Accepted throughput: 147.00 tokens/s, Accepted: 1470"
            + " tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, Avg Draft acceptance"
            + " rate: 50.0%";

    VllmFields f = VllmFields.colonList(list);

    assertThat(f.raw())
        .containsEntry("Mean acceptance length", "1.97")
        .containsEntry("Per-position acceptance rate", "0.700, 0.500, 0.300")
        .containsEntry("Avg Draft acceptance rate", "50.0%");
    assertThat(f.error()).isNull();
    assertThat(Reference.of(list).raw).containsExactlyEntriesOf(f.raw());
  }

  @Provide
  Arbitrary<String> lists() {
    // commas, colons, ASCII and Unicode whitespace (U+2003 is whitespace to strip, U+00A0 is not),
    // a surrogate pair and a lone surrogate, letters and digits
    return Arbitraries.strings()
        .withChars(",:: \t\n\u000b\u001c\u2003\u00a0\ud83d\ude00\ud800abN1.%")
        .ofMaxLength(40);
  }

  /** The implementation before the index scan (split at commas, strip each part). */
  private record Reference(Map<String, String> raw, String error) {
    static Reference of(String list) {
      LinkedHashMap<String, String> raw = new LinkedHashMap<>();
      String last = null;
      String error = null;
      for (String part : list.split(",")) {
        String field = part.strip();
        if (field.isEmpty()) {
          continue;
        }
        int colon = field.indexOf(':');
        if (colon < 0) {
          if (last == null) {
            error = error == null ? "text before the first field: '" + field + "'" : error;
          } else {
            raw.put(last, raw.get(last) + ", " + field);
          }
          continue;
        }
        String name = field.substring(0, colon).strip();
        String value = field.substring(colon + 1).strip();
        if (raw.putIfAbsent(name, value) != null && error == null) {
          error = "duplicate field '" + name + "'";
        }
        last = name;
      }
      return new Reference(raw, error);
    }
  }
}
