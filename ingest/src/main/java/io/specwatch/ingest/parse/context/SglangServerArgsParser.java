package io.specwatch.ingest.parse.context;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.SpecMethods;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.PrefixParser;
import java.util.List;
import java.util.Map;

/**
 * SGLang's startup line {@code [2025-11-06 01:22:00] server_args=ServerArgs(model_path='...',
 * tp_size=8, ..., speculative_algorithm='EAGLE3', ...)} (format {@code sglang.server_args}): model,
 * parallelism, speculative settings and CUDA graphs of the deployment. Never throws.
 */
public final class SglangServerArgsParser implements LineParser {

  public static final String FORMAT = "sglang.server_args";

  private static final String MARKER = "server_args=ServerArgs(";

  /** Performance-relevant arguments kept in {@code extra} (plus every other speculative_*). */
  static final List<String> EXTRA =
      List.of(
          "dtype",
          "quantization",
          "kv_cache_dtype",
          "attention_backend",
          "decode_attention_backend",
          "sampling_backend",
          "mem_fraction_static",
          "max_running_requests",
          "chunked_prefill_size",
          "page_size",
          "schedule_policy",
          "decode_log_interval",
          "cuda_graph_max_bs",
          "enable_dp_attention",
          "enable_torch_compile",
          "disable_radix_cache",
          "moe_runner_backend",
          "moe_a2a_backend",
          "pp_size",
          "revision");

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public List<String> markers() {
    return List.of(MARKER);
  }

  @Override
  public ParseResult parse(String line) {
    int at = line.indexOf(MARKER);
    if (at < 0) {
      return ParseResult.NOT_METRIC;
    }
    PrefixParser.Split split = PrefixParser.split(line);
    Map<String, Object> args = PyRepr.kwargs(line.substring(at + MARKER.length()));
    String model = EngineArgs.text(args, "model_path");
    if (model == null) {
      return ParseResult.failed(FORMAT, "model_path: missing (line cut short?)");
    }
    ContextFields.Builder b = ContextFields.builder();
    b.engine = "SGLANG";
    b.model = model;
    b.tp = EngineArgs.positiveInt(args, "tp_size");
    b.dp = EngineArgs.positiveInt(args, "dp_size");
    b.ep = EngineArgs.positiveInt(args, "ep_size");
    if (args.containsKey("speculative_algorithm")) {
      b.specMethod = SpecMethods.normalise(EngineArgs.text(args, "speculative_algorithm"));
    }
    b.numSteps = EngineArgs.positiveInt(args, "speculative_num_steps");
    b.topk = EngineArgs.positiveInt(args, "speculative_eagle_topk");
    b.numDraftTokens = EngineArgs.positiveInt(args, "speculative_num_draft_tokens");
    b.draftModel = EngineArgs.text(args, "speculative_draft_model_path");
    b.draftModelVersion = EngineArgs.text(args, "speculative_draft_model_revision");
    Boolean disabled = EngineArgs.bool(args, "disable_cuda_graph");
    b.cudaGraph = disabled == null ? null : !disabled;
    b.extra.putAll(EngineArgs.selected(args, EXTRA));
    for (Map.Entry<String, Object> e : args.entrySet()) {
      String k = e.getKey();
      if (k.startsWith("speculative_")
          && !List.of(
                  "speculative_algorithm",
                  "speculative_num_steps",
                  "speculative_eagle_topk",
                  "speculative_num_draft_tokens",
                  "speculative_draft_model_path",
                  "speculative_draft_model_revision")
              .contains(k)) {
        b.extra.put(k, e.getValue() == null ? "None" : String.valueOf(e.getValue()));
      }
    }
    return new ParseResult.Parsed(
        new ContextLine(FORMAT, split.prefix(), null, null, b.build(), EngineArgs.raw(args)));
  }
}
