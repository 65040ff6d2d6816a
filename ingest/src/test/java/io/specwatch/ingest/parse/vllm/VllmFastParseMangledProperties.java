package io.specwatch.ingest.parse.vllm;

import static io.specwatch.ingest.parse.vllm.VllmReferenceCheck.assertSameAsReference;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The vLLM parsers after round 9 give the same results as the {@code Reference*} implementation
 * before it (see {@link VllmFastParseCorpusProperties}) on mangled lines: corpus and random
 * well-formed lines cut, with their first characters missing, garbage inserted, separators doubled,
 * unicode and line terminators.
 */
class VllmFastParseMangledProperties {

  @Property(tries = 6000)
  void mangledLinesParseAsBefore(@ForAll("mangledLines") String line) {
    assertSameAsReference(line);
  }

  @Provide
  Arbitrary<String> mangledLines() {
    return VllmLineArbitraries.mangledLines();
  }
}
