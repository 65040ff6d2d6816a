package io.specwatch.ingest.generate;

import io.specwatch.schemas.Engine;

/**
 * The native log format a synthetic deployment writes to its {@code engine.log}: one value per
 * format family and generation the ingest parsers read.
 */
public enum LogFormat {
  /** {@code Decode batch. ... accept len: F, gen throughput ..., #queue-req: N, } (early 2025). */
  SGLANG_2025_EARLY(Engine.SGLANG, "sglang.decode_batch", 40),
  /** Mid 2025: adds {@code cuda graph: True|False}. */
  SGLANG_2025_MID(Engine.SGLANG, "sglang.decode_batch", 40),
  /** ~Oct 2025: adds {@code accept rate: F} (accepted drafts / drafted). */
  SGLANG_2025_OCT(Engine.SGLANG, "sglang.decode_batch", 40),
  /** 2026: {@code Decode batch [forward_ct],} with {@code cuda graph} and {@code accept rate}. */
  SGLANG_2026(Engine.SGLANG, "sglang.decode_batch", 40),
  /** vLLM V1 {@code Speculative metrics: Draft acceptance rate: F, Number of accepted ...}. */
  VLLM_V1_SPEC_V1(Engine.VLLM, "vllm.v1.spec_decoding.v1", 16),
  /** vLLM V1 {@code SpecDecoding metrics: Draft acceptance rate: F%, Accepted, Drafted}. */
  VLLM_V1_SPEC_V2(Engine.VLLM, "vllm.v1.spec_decoding.v2", 16),
  /** v2 plus mean acceptance length and per-position acceptance. */
  VLLM_V1_SPEC_V3(Engine.VLLM, "vllm.v1.spec_decoding.v3", 16),
  /** Mean acceptance length, accepted/drafted throughput, per-position, avg rate. */
  VLLM_V1_SPEC_V4(Engine.VLLM, "vllm.v1.spec_decoding.v4", 16),
  /** vLLM v0: throughput, cumulative {@code Speculative metrics}, stage times. */
  VLLM_V0(Engine.VLLM, "vllm.v0.spec_metrics", 16),
  /** TensorRT-LLM iteration stats JSON, one sampled iteration per line. */
  TRTLLM_ITERATION_STATS(Engine.TRTLLM, "trtllm.iteration_stats", 1),
  /** The instrumented per-cycle JSON ({@code specwatch.cycle.v1}) plus run-context lines. */
  SPECWATCH_CYCLE(Engine.INSTRUMENTED, "specwatch.cycle", 1);

  private final Engine engine;
  private final String formatId;
  private final int passesPerTick;

  LogFormat(Engine engine, String formatId, int passesPerTick) {
    this.engine = engine;
    this.formatId = formatId;
    this.passesPerTick = passesPerTick;
  }

  public Engine engine() {
    return engine;
  }

  /** Format id the parsers report for the speculative lines of this format. */
  public String formatId() {
    return formatId;
  }

  /** Decode passes simulated per tick (SGLang: the decode-log-interval, 40). */
  public int passesPerTick() {
    return passesPerTick;
  }

  /** Engine name in run-context lines. */
  public String engineName() {
    return switch (engine) {
      case SGLANG -> "sglang";
      case VLLM -> "vllm";
      case TRTLLM -> "tensorrt-llm";
      default -> "sglang";
    };
  }

  public boolean isSglang() {
    return engine == Engine.SGLANG;
  }

  public boolean isVllmV1() {
    return name().startsWith("VLLM_V1");
  }
}
