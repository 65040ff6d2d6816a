package io.specwatch.ingest.cli;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.context.SpecMethods;
import io.specwatch.serde.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Run-context options shared by {@code ship}, {@code tail} and {@code scrape}: what the operator
 * states about the deployment (the lowest layer; the {@code --run-context} file overrides it, the
 * logs override both), each with its {@code SPECWATCH_*} env default.
 */
final class RunContextOptions {

  @Option(
      names = "--run-context",
      defaultValue = "${env:SPECWATCH_RUN_CONTEXT}",
      description =
          "JSON file in the specwatch.run_context.v1 shape; tail re-reads it when it changes"
              + " (env SPECWATCH_RUN_CONTEXT).")
  Path file;

  @Option(
      names = "--run-context-topic",
      defaultValue = "${env:SPECWATCH_RUN_CONTEXT_TOPIC:-" + Topics.RUN_CONTEXT + "}",
      description =
          "Compacted run-context topic (env SPECWATCH_RUN_CONTEXT_TOPIC, default ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--model",
      defaultValue = "${env:SPECWATCH_MODEL}",
      description = "Target model (env SPECWATCH_MODEL).")
  String model;

  @Option(
      names = "--spec-method",
      defaultValue = "${env:SPECWATCH_SPEC_METHOD}",
      description = "EAGLE3, EAGLE, MTP, NGRAM, DRAFT_MODEL or NONE (env SPECWATCH_SPEC_METHOD).")
  String specMethod;

  @Option(
      names = "--tp",
      defaultValue = "${env:SPECWATCH_TP}",
      description = "Tensor-parallel size (env SPECWATCH_TP).")
  Integer tp;

  @Option(
      names = "--dp",
      defaultValue = "${env:SPECWATCH_DP}",
      description = "Data-parallel size (env SPECWATCH_DP).")
  Integer dp;

  @Option(
      names = "--ep",
      defaultValue = "${env:SPECWATCH_EP}",
      description = "Expert-parallel size (env SPECWATCH_EP).")
  Integer ep;

  @Option(
      names = "--engine-family",
      defaultValue = "${env:SPECWATCH_ENGINE_FAMILY}",
      description = "SGLANG, VLLM, TRTLLM or INSTRUMENTED (env SPECWATCH_ENGINE_FAMILY).")
  String engine;

  @Option(
      names = "--engine-version",
      defaultValue = "${env:SPECWATCH_ENGINE_VERSION}",
      description = "Engine release (env SPECWATCH_ENGINE_VERSION).")
  String engineVersion;

  @Option(
      names = "--engine-commit",
      defaultValue = "${env:SPECWATCH_ENGINE_COMMIT}",
      description = "Engine git commit (env SPECWATCH_ENGINE_COMMIT).")
  String engineCommit;

  @Option(
      names = "--draft-model",
      defaultValue = "${env:SPECWATCH_DRAFT_MODEL}",
      description = "Draft model (env SPECWATCH_DRAFT_MODEL).")
  String draftModel;

  @Option(
      names = "--draft-model-version",
      defaultValue = "${env:SPECWATCH_DRAFT_MODEL_VERSION}",
      description = "Draft model version (env SPECWATCH_DRAFT_MODEL_VERSION).")
  String draftModelVersion;

  @Option(
      names = "--gpu-model",
      defaultValue = "${env:SPECWATCH_GPU_MODEL}",
      description = "GPU model (env SPECWATCH_GPU_MODEL).")
  String gpuModel;

  @Option(
      names = "--gpu-count",
      defaultValue = "${env:SPECWATCH_GPU_COUNT}",
      description = "GPUs of the deployment (env SPECWATCH_GPU_COUNT).")
  Integer gpuCount;

  @Option(
      names = "--interconnect",
      defaultValue = "${env:SPECWATCH_INTERCONNECT}",
      description = "PCIe, NVLink, ... (env SPECWATCH_INTERCONNECT).")
  String interconnect;

  @Option(
      names = "--hardware-class",
      defaultValue = "${env:SPECWATCH_HARDWARE_CLASS}",
      description =
          "Baseline comparison class, e.g. rtx-pro-6000x8 (env SPECWATCH_HARDWARE_CLASS).")
  String hardwareClass;

  @Option(
      names = "--cuda-graph",
      arity = "1",
      defaultValue = "${env:SPECWATCH_CUDA_GRAPH}",
      description = "true/false: CUDA graphs on for decode (env SPECWATCH_CUDA_GRAPH).")
  Boolean cudaGraph;

  @Option(
      names = "--env",
      description =
          "Environment variable of the engine KEY=VAL, repeatable (env SPECWATCH_CONTEXT_ENV,"
              + " comma separated).")
  Map<String, String> env = new LinkedHashMap<>();

  /**
   * The sources, validated.
   *
   * @param envVars the process environment (for SPECWATCH_CONTEXT_ENV)
   * @throws IllegalArgumentException naming the setting
   */
  RunContextSources toSources(Map<String, String> envVars) {
    if (file != null && !Files.isReadable(file)) {
      throw new IllegalArgumentException(
          "setting 'run-context' (SPECWATCH_RUN_CONTEXT): cannot read '" + file + "'");
    }
    positive(tp, "tp (SPECWATCH_TP)");
    positive(dp, "dp (SPECWATCH_DP)");
    positive(ep, "ep (SPECWATCH_EP)");
    positive(gpuCount, "gpu-count (SPECWATCH_GPU_COUNT)");
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("setting 'run-context-topic' must not be blank");
    }
    Map<String, String> vars = new LinkedHashMap<>(env);
    String fromEnv = envVars.get("SPECWATCH_CONTEXT_ENV");
    if (vars.isEmpty() && fromEnv != null && !fromEnv.isBlank()) {
      for (String kv : fromEnv.split(",")) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(
              "setting 'env' (SPECWATCH_CONTEXT_ENV): expected KEY=VAL, was '" + kv.strip() + "'");
        }
        vars.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
      }
    }
    ContextFields.Builder b = ContextFields.builder();
    b.model = blankToNull(model);
    b.specMethod = blankToNull(specMethod) == null ? null : SpecMethods.normalise(specMethod);
    b.tp = tp;
    b.dp = dp;
    b.ep = ep;
    b.engine = blankToNull(engine);
    b.engineVersion = blankToNull(engineVersion);
    b.engineCommit = blankToNull(engineCommit);
    b.draftModel = blankToNull(draftModel);
    b.draftModelVersion = blankToNull(draftModelVersion);
    b.gpuModel = blankToNull(gpuModel);
    b.gpuCount = gpuCount;
    b.interconnect = blankToNull(interconnect);
    b.hardwareClass = blankToNull(hardwareClass);
    b.cudaGraph = cudaGraph;
    b.env = vars.isEmpty() ? null : vars;
    return new RunContextSources(b.build(), file);
  }

  private static void positive(Integer v, String setting) {
    if (v != null && v < 1) {
      throw new IllegalArgumentException("setting '" + setting + "' must be >= 1, was " + v);
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
