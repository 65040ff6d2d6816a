package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.SpecMethods;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.context.ContextLine;
import io.specwatch.ingest.parse.context.EngineArgs;
import io.specwatch.ingest.parse.context.PyRepr;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * vLLM's startup configuration lines, which reveal run-context fields:
 *
 * <ul>
 *   <li>{@code vllm.engine_config}: {@code Initializing a V1 LLM engine (v0.8.3) with config:
 *       model='...', speculative_config=SpeculativeConfig(method='eagle3', model='...',
 *       num_spec_tokens=3), ..., tensor_parallel_size=8, ..., enforce_eager=False, ...} (also the
 *       V0 spellings {@code Initializing an LLM engine} / {@code a V0 LLM engine});
 *   <li>{@code vllm.non_default_args}: {@code non-default args: {'model': '...',
 *       'tensor_parallel_size': 4, 'speculative_config': {'method': 'eagle3', 'model': '...',
 *       'num_speculative_tokens': 3}}} (a setting left out is at its default: tp 1, no
 *       speculation).
 * </ul>
 *
 * Never throws.
 */
public final class VllmConfigParser implements LineParser {

  public static final String ENGINE_CONFIG = "vllm.engine_config";
  public static final String NON_DEFAULT_ARGS = "vllm.non_default_args";

  private static final Pattern ENGINE =
      Pattern.compile(
          "Initializing an? (?:V\\d+ )?LLM engine(?: \\(v([^)\\s]+)\\))? with config: ");
  private static final String NON_DEFAULT = "non-default args: ";

  static final List<String> EXTRA =
      List.of(
          "dtype",
          "quantization",
          "kv_cache_dtype",
          "max_seq_len",
          "max_model_len",
          "pipeline_parallel_size",
          "enable_prefix_caching",
          "chunked_prefill_enabled",
          "enable_chunked_prefill",
          "max_num_seqs",
          "max_num_batched_tokens",
          "gpu_memory_utilization",
          "enable_expert_parallel",
          "revision");

  @Override
  public String format() {
    return ENGINE_CONFIG;
  }

  @Override
  public List<String> markers() {
    return List.of("LLM engine", NON_DEFAULT);
  }

  @Override
  public ParseResult parse(String line) {
    // the regex needs the literal "LLM engine": most lines are rejected without running it
    Matcher m = line.contains("LLM engine") ? ENGINE.matcher(line) : null;
    if (m != null && m.find()) {
      Map<String, Object> args = PyRepr.kwargs(line.substring(m.end()));
      return context(line, ENGINE_CONFIG, m.group(1), args, false);
    }
    int at = line.indexOf(NON_DEFAULT);
    if (at >= 0 && line.startsWith("{", at + NON_DEFAULT.length())) {
      Object v = PyRepr.value(line.substring(at + NON_DEFAULT.length()));
      if (!(v instanceof Map<?, ?>)) {
        return ParseResult.failed(NON_DEFAULT_ARGS, "non-default args: not a dict");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> args = (Map<String, Object>) v;
      return context(line, NON_DEFAULT_ARGS, null, args, true);
    }
    return ParseResult.NOT_METRIC;
  }

  private static ParseResult context(
      String line, String format, String version, Map<String, Object> args, boolean nonDefault) {
    String model = EngineArgs.text(args, "model");
    if (model == null && !nonDefault) {
      return ParseResult.failed(format, "model: missing (line cut short?)");
    }
    ContextFields.Builder b = ContextFields.builder();
    b.engine = "VLLM";
    b.engineVersion = version;
    b.model = model;
    b.tp = EngineArgs.positiveInt(args, "tensor_parallel_size");
    b.dp = EngineArgs.positiveInt(args, "data_parallel_size");
    if (nonDefault) {
      b.tp = b.tp == null ? Integer.valueOf(1) : b.tp;
    }
    if (args.containsKey("speculative_config") || nonDefault) {
      Map<String, Object> spec = EngineArgs.map(args, "speculative_config");
      if (spec == null) {
        b.specMethod = SpecMethods.NONE;
      } else {
        String method = EngineArgs.text(spec, "method");
        String draft = EngineArgs.text(spec, "model");
        if (draft == null) {
          draft = EngineArgs.text(spec, "draft_model");
        }
        b.specMethod =
            method != null
                ? SpecMethods.normalise(method)
                : (draft != null ? "DRAFT_MODEL" : SpecMethods.UNKNOWN);
        b.draftModel = draft;
        Integer k = EngineArgs.positiveInt(spec, "num_speculative_tokens");
        b.numDraftTokens = k != null ? k : EngineArgs.positiveInt(spec, "num_spec_tokens");
        b.numSteps = b.numDraftTokens;
      }
    }
    Boolean eager = EngineArgs.bool(args, "enforce_eager");
    b.cudaGraph = eager == null ? null : !eager;
    b.extra.putAll(EngineArgs.selected(args, EXTRA));
    VllmPrefix.Split split = VllmPrefix.split(line);
    return new ParseResult.Parsed(
        new ContextLine(
            format, LinePrefix.NONE, null, split.stamp(), b.build(), EngineArgs.raw(args)));
  }
}
