package io.specwatch.ingest.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.generate.GeneratedFormatsProperties;
import io.specwatch.ingest.generate.LogFormat;
import io.specwatch.ingest.generate.SpecMethod;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the vLLM fast-parse properties share: the parsers after round 9 and the implementation
 * before it, kept verbatim as {@code Reference*} in this package (the oracle); the comparison of
 * their full outcome; and the corpus of the generator's lines of every vLLM generation and the
 * committed samples.
 */
final class VllmReferenceCheck {

  static final LineParser V1 = new VllmV1Parser();
  static final LineParser V0 = new VllmV0Parser();
  private static final LineParser REF_V1 = new ReferenceVllmV1Parser();
  private static final LineParser REF_V0 = new ReferenceVllmV0Parser();

  /** The generator's engine-log lines of every vLLM generation, and the committed samples. */
  static final List<String> CORPUS = corpus();

  private VllmReferenceCheck() {}

  private static List<String> corpus() {
    List<String> lines = new ArrayList<>();
    for (LogFormat format : LogFormat.values()) {
      if (format.name().startsWith("VLLM")) {
        for (SpecMethod method : List.of(SpecMethod.EAGLE, SpecMethod.NONE)) {
          for (String line : GeneratedFormatsProperties.lines(format, method, 7)) {
            if (!V1.parse(line).equals(ParseResult.NOT_METRIC)
                || !V0.parse(line).equals(ParseResult.NOT_METRIC)) {
              lines.add(line);
            }
          }
        }
      }
    }
    lines.addAll(VllmParsersTest.SAMPLES);
    try (var in = VllmReferenceCheck.class.getResourceAsStream("/mixed/mixed-engines.log")) {
      String text = new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8);
      lines.addAll(text.lines().toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(lines);
  }

  /** Both parsers give the reference's result: equal records, field order, reason or exception. */
  static void assertSameAsReference(String line) {
    assertThat(outcome(V1, line)).as("V1: %s", line).isEqualTo(outcome(REF_V1, line));
    assertThat(outcome(V0, line)).as("v0: %s", line).isEqualTo(outcome(REF_V0, line));
  }

  /** The result, its raw fields in order and each double's bits, or the exception thrown. */
  private static List<Object> outcome(LineParser parser, String line) {
    ParseResult r;
    try {
      r = parser.parse(line);
    } catch (RuntimeException e) {
      return List.of("threw", e.toString());
    }
    List<Object> out = new ArrayList<>();
    out.add(r);
    if (r instanceof ParseResult.Parsed p) {
      out.add(new ArrayList<>(p.line().rawFields().entrySet()));
      out.add(p.line().toString()); // Double.toString of every number: bits of each value
    }
    return out;
  }
}
