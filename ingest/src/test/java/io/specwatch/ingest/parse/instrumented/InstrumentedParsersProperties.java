package io.specwatch.ingest.parse.instrumented;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.context.ContextLine;
import io.specwatch.ingest.parse.context.ContextParsersTest;
import io.specwatch.ingest.parse.context.PyRepr;
import io.specwatch.ingest.parse.context.RunContextJsonParser;
import io.specwatch.ingest.parse.context.SglangServerArgsParser;
import io.specwatch.ingest.parse.vllm.VllmConfigParser;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * No input crashes the instrumented and run-context parsers (nor the Python-repr reader); what they
 * accept satisfies the contract's invariants.
 */
class InstrumentedParsersProperties {

  private static final List<String> REAL =
      List.of(
          CycleJsonParserTest.CONTRACT,
          "{\"schema\":\"specwatch.cycle.v1\",\"ts\":1795971600500,\"step\":7,\"batch_size\":8,"
              + "\"num_draft_tokens\":3,\"accepted_tokens\":10,\"drafted_tokens\":24,"
              + "\"cycle_ms\":30,\"per_position_accepted\":[6,3,1]}",
          ContextParsersTest.RUN_CONTEXT,
          "[2026-11-30 17:00:00 TP0] Draft: 0.61 ms/cyc (2.0%) Target verify: 28.96 ms/cyc"
              + " (97.0%) Other: 0.30 ms/cyc (1.0%)",
          "Target verify: 28.96 ms/cyc (97.0%) Target verify: 28.94 ms/cyc (96.9%)",
          "[2025-11-06 01:22:00] server_args=ServerArgs(model_path='/m', tp_size=8,"
              + " speculative_algorithm='EAGLE3', speculative_num_steps=2,"
              + " disable_cuda_graph=False, json_model_override_args='{}', lora_paths=None)",
          "INFO 04-17 23:05:00 [core.py:61] Initializing a V1 LLM engine (v0.8.3) with config:"
              + " model='/m', speculative_config=SpeculativeConfig(method='eagle3', model='d',"
              + " num_spec_tokens=3), tensor_parallel_size=2, enforce_eager=False,"
              + " compilation_config={\"level\":3,\"sizes\":[1,2]}",
          "INFO 06-17 20:29:40 [cli_args.py:309] non-default args: {'model': 'm',"
              + " 'tensor_parallel_size': 4, 'speculative_config': {'model': 'd',"
              + " 'num_speculative_tokens': 5}}");

  private static final List<LineParser> PARSERS =
      List.of(
          new CycleJsonParser(),
          new PhaseProfileParser(),
          new RunContextJsonParser(),
          new SglangServerArgsParser(),
          new VllmConfigParser());

  @Property(tries = 2000)
  void arbitraryStringsNeverThrow(@ForAll String line) {
    for (LineParser p : PARSERS) {
      assertThat(p.parse(line)).isNotNull();
    }
    PyRepr.kwargs(line);
    PyRepr.value(line);
  }

  @Property(tries = 4000)
  void mutatedRealLinesNeverThrowAndStayConsistent(@ForAll("mutatedLines") String line) {
    for (LineParser p : PARSERS) {
      ParseResult r = p.parse(line);
      assertThat(r).isNotNull();
      if (r instanceof ParseResult.Failed f) {
        assertThat(f.reason()).isNotBlank();
      }
      if (r instanceof ParseResult.Parsed parsed) {
        check(parsed);
      }
    }
    PyRepr.kwargs(line);
    assertThat(ParserRegistry.defaults().parse(line)).isNotNull();
  }

  private static void check(ParseResult.Parsed parsed) {
    if (parsed.line() instanceof CycleLine c) {
      assertThat(c.batchSize()).isPositive();
      assertThat(c.cycleMs()).isPositive().isFinite();
      assertThat(c.acceptedTokens()).isBetween(0L, c.draftedTokens());
      assertThat(c.acceptLength()).isFinite().isGreaterThanOrEqualTo(1.0);
      if (c.accepted() != null) {
        assertThat(c.accepted()).hasSize(c.batchSize()).allMatch(a -> a <= c.numDraftTokens());
        assertThat(c.acceptLength()).isLessThanOrEqualTo(1.0 + c.numDraftTokens());
      }
      assertThat(c.perPositionAccepted()).allMatch(n -> n >= 0 && n <= c.batchSize());
    } else if (parsed.line() instanceof PhaseProfileLine p) {
      assertThat(p.reports()).isNotEmpty();
      assertThat(p.reports()).allMatch(r -> r.cycleMs() > 0 && Double.isFinite(r.cycleMs()));
    } else if (parsed.line() instanceof ContextLine c) {
      assertThat(c.fields()).isNotNull();
      if (c.fields().tp() != null) {
        assertThat(c.fields().tp()).isNotNegative();
      }
    }
  }

  @Provide
  Arbitrary<String> mutatedLines() {
    Arbitrary<String> base = Arbitraries.of(REAL);
    Arbitrary<Integer> position = Arbitraries.integers().between(0, 500);
    Arbitrary<String> insert =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(6),
            Arbitraries.of(
                "-",
                "0",
                "null",
                "None",
                "\"",
                "'",
                "{",
                "}",
                "[",
                "]",
                "(",
                ")",
                ",",
                ":",
                "=",
                "1e400",
                "-5",
                "nan",
                "99999999999999999999",
                "ms/cyc",
                "(0.0%)",
                "true"));
    Arbitrary<Integer> cut = Arbitraries.integers().between(0, 12);
    return Combinators.combine(base, position, insert, cut)
        .as(
            (line, pos, ins, del) -> {
              int p = Math.min(pos, line.length());
              int end = Math.min(line.length(), p + del);
              return line.substring(0, p) + ins + line.substring(end);
            });
  }
}
