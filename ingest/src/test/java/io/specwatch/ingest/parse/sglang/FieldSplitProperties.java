package io.specwatch.ingest.parse.sglang;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The hand-written field splitter of {@link SglangDecodeBatchParser} reads every field list exactly
 * as the regex it replaced ({@code ([^:]{1,80}?)\s*:\s*(.*)}): same map, same order, same error.
 */
class FieldSplitProperties {

  private static final Pattern FIELD = Pattern.compile("([^:]{1,80}?)\\s*:\\s*(.*)");

  /** The former implementation, kept as the reference. */
  private static String regexReadFields(String list, Map<String, String> raw) {
    for (String part : list.split(",")) {
      String field = part.strip();
      if (field.isEmpty()) {
        continue;
      }
      Matcher m = FIELD.matcher(field);
      if (!m.matches()) {
        raw.merge("_text", field, (a, b) -> a + ", " + b);
        continue;
      }
      String name = m.group(1).strip();
      if (raw.putIfAbsent(name, m.group(2).strip()) != null) {
        return "duplicate field '" + name + "'";
      }
    }
    return null;
  }

  @Property(tries = 3000)
  void sameAsRegex(@ForAll("fieldLists") String list) {
    Map<String, String> expected = new LinkedHashMap<>();
    Map<String, String> actual = new LinkedHashMap<>();
    String expectedError = regexReadFields(list, expected);
    String actualError = SglangDecodeBatchParser.readFields(list, actual);
    assertThat(actualError).isEqualTo(expectedError);
    assertThat(actual).containsExactlyEntriesOf(expected);
  }

  @Property(tries = 1000)
  void sameAsRegexOnArbitraryStrings(@ForAll String list) {
    Map<String, String> expected = new LinkedHashMap<>();
    Map<String, String> actual = new LinkedHashMap<>();
    assertThat(SglangDecodeBatchParser.readFields(list, actual))
        .isEqualTo(regexReadFields(list, expected));
    assertThat(actual).containsExactlyEntriesOf(expected);
  }

  @Provide
  Arbitrary<String> fieldLists() {
    Arbitrary<String> name =
        Arbitraries.oneOf(
            Arbitraries.of("#running-req", "token usage", "accept len", "cuda graph", "", " "),
            Arbitraries.strings().withChars("ab #:\t\u000b\f\r\n\u0085\u2028 ").ofMaxLength(6),
            Arbitraries.strings().withChars("x ").ofMinLength(75).ofMaxLength(90));
    Arbitrary<String> sep = Arbitraries.of(":", ": ", " : ", ":\t", "::", " ", "");
    Arbitrary<String> value =
        Arbitraries.strings().withChars("0123.e \t\r\n\u0085\u2028\u2029:TrueFals").ofMaxLength(8);
    Arbitrary<String> field =
        net.jqwik.api.Combinators.combine(name, sep, value).as((n, s, v) -> n + s + v);
    return field.list().ofMaxSize(8).map(fs -> String.join(", ", fs) + ", ");
  }
}
