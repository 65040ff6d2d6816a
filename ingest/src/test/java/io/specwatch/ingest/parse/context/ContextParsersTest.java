package io.specwatch.ingest.parse.context;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.vllm.VllmConfigParser;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.MonthDay;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class ContextParsersTest {

  public static final String RUN_CONTEXT =
      "{\"schema\":\"specwatch.run_context.v1\",\"ts\":\"2026-11-30T17:00:00Z\","
          + "\"deployment\":\"kimi-eagle3\",\"engine\":\"sglang\",\"engine_version\":\"0.5.6\","
          + "\"engine_commit\":\"a1b2c3d\",\"model\":\"moonshotai/Kimi-K2.5\","
          + "\"draft_model\":\"lmsys/Kimi-K2.5-EAGLE3\",\"draft_model_version\":\"v2\","
          + "\"spec_method\":\"EAGLE3\",\"num_steps\":2,\"topk\":1,\"num_draft_tokens\":3,"
          + "\"gpu_model\":\"RTX PRO 6000 Blackwell\",\"gpu_count\":8,\"interconnect\":\"PCIe\","
          + "\"hardware_class\":\"rtx-pro-6000x8\",\"tp\":8,\"dp\":1,\"ep\":1,\"cuda_graph\":true,"
          + "\"env\":{\"NCCL_PROTO\":\"LL\",\"NCCL_ALGO\":\"Ring\"},\"launcher\":\"k8s\"}";

  private static ContextLine parsed(String line) {
    ParseResult r = ParserRegistry.defaults().parse(line);
    assertThat(r).isInstanceOf(ParseResult.Parsed.class);
    return (ContextLine) ((ParseResult.Parsed) r).line();
  }

  private static String failed(String line) {
    ParseResult r = ParserRegistry.defaults().parse(line);
    assertThat(r).isInstanceOf(ParseResult.Failed.class);
    return ((ParseResult.Failed) r).reason();
  }

  @Test
  void runContextLineMapsEveryField() {
    ContextLine c = parsed(RUN_CONTEXT);
    assertThat(c.format()).isEqualTo("specwatch.run_context");
    assertThat(c.time()).isEqualTo(Instant.parse("2026-11-30T17:00:00Z"));
    ContextFields f = c.fields();
    assertThat(f.deployment()).isEqualTo("kimi-eagle3");
    assertThat(f.engine()).isEqualTo("sglang");
    assertThat(f.engineVersion()).isEqualTo("0.5.6");
    assertThat(f.engineCommit()).isEqualTo("a1b2c3d");
    assertThat(f.model()).isEqualTo("moonshotai/Kimi-K2.5");
    assertThat(f.draftModel()).isEqualTo("lmsys/Kimi-K2.5-EAGLE3");
    assertThat(f.draftModelVersion()).isEqualTo("v2");
    assertThat(f.specMethod()).isEqualTo("EAGLE3");
    assertThat(f.numSteps()).isEqualTo(2);
    assertThat(f.topk()).isEqualTo(1);
    assertThat(f.numDraftTokens()).isEqualTo(3);
    assertThat(f.gpuModel()).isEqualTo("RTX PRO 6000 Blackwell");
    assertThat(f.gpuCount()).isEqualTo(8);
    assertThat(f.interconnect()).isEqualTo("PCIe");
    assertThat(f.hardwareClass()).isEqualTo("rtx-pro-6000x8");
    assertThat(f.tp()).isEqualTo(8);
    assertThat(f.dp()).isEqualTo(1);
    assertThat(f.ep()).isEqualTo(1);
    assertThat(f.cudaGraph()).isTrue();
    assertThat(f.env()).isEqualTo(Map.of("NCCL_PROTO", "LL", "NCCL_ALGO", "Ring"));
    assertThat(f.extra()).isEqualTo(Map.of("launcher", "k8s"));
  }

  @Test
  void runContextLineRequiresModelSpecMethodAndTp() {
    assertThat(failed(RUN_CONTEXT.replace("\"tp\":8,", ""))).isEqualTo("tp: required");
    assertThat(failed(RUN_CONTEXT.replace("\"spec_method\":\"EAGLE3\",", "")))
        .isEqualTo("spec_method: required");
    assertThat(failed(RUN_CONTEXT.replace("\"model\":\"moonshotai/Kimi-K2.5\",", "")))
        .isEqualTo("model: required");
    assertThat(failed(RUN_CONTEXT.replace("\"ts\":\"2026-11-30T17:00:00Z\",", "")))
        .isEqualTo("ts: required");
    assertThat(failed(RUN_CONTEXT.replace("\"tp\":8", "\"tp\":0"))).startsWith("tp: expected");
    assertThat(failed(RUN_CONTEXT.replace("\"cuda_graph\":true", "\"cuda_graph\":\"yes\"")))
        .startsWith("cuda_graph");
    assertThat(parsed(RUN_CONTEXT.replace("EAGLE3\",\"num", "none\",\"num")).fields().specMethod())
        .isEqualTo("NONE");
  }

  @Test
  void sglangServerArgs() {
    ContextLine c =
        parsed(
            "[2025-11-06 01:22:00] server_args=ServerArgs(model_path='/shared/Qwen3-4B/',"
                + " tokenizer_path='/shared/Qwen3-4B/', tokenizer_mode='auto',"
                + " model_loader_extra_config='{}', context_length=None, dtype='auto',"
                + " mem_fraction_static=0.835, max_running_requests=48, tp_size=4, dp_size=2,"
                + " ep_size=1, speculative_algorithm='NEXTN', speculative_draft_model_path=None,"
                + " speculative_num_steps=3, speculative_eagle_topk=1,"
                + " speculative_num_draft_tokens=4, speculative_accept_threshold_single=1.0,"
                + " disable_cuda_graph=True, json_model_override_args='{}',"
                + " lora_paths=None, hicache_storage_backend_extra_config=None, decode_log_interval=40)");
    assertThat(c.format()).isEqualTo("sglang.server_args");
    assertThat(c.prefix().timestamp()).isEqualTo(LocalDateTime.parse("2025-11-06T01:22:00"));
    ContextFields f = c.fields();
    assertThat(f.engine()).isEqualTo("SGLANG");
    assertThat(f.model()).isEqualTo("/shared/Qwen3-4B/");
    assertThat(f.tp()).isEqualTo(4);
    assertThat(f.dp()).isEqualTo(2);
    assertThat(f.ep()).isEqualTo(1);
    assertThat(f.specMethod()).isEqualTo("MTP");
    assertThat(f.draftModel()).isNull();
    assertThat(f.numSteps()).isEqualTo(3);
    assertThat(f.topk()).isEqualTo(1);
    assertThat(f.numDraftTokens()).isEqualTo(4);
    assertThat(f.cudaGraph()).isFalse();
    assertThat(f.env()).isNull();
    assertThat(f.extra())
        .containsEntry("mem_fraction_static", "0.835")
        .containsEntry("decode_log_interval", "40")
        .containsEntry("speculative_accept_threshold_single", "1.0")
        .doesNotContainKey("tokenizer_mode");
    assertThat(c.rawFields()).containsEntry("context_length", "None");
  }

  @Test
  void sglangWithoutSpeculationIsNone() {
    ContextFields f =
        parsed(
                "[2025-10-20 09:00:00] server_args=ServerArgs(model_path='/models/Kimi-K2.5',"
                    + " tp_size=8, speculative_algorithm=None, host='0.0.0.0', port=30000)")
            .fields();
    assertThat(f.specMethod()).isEqualTo("NONE");
    assertThat(f.cudaGraph()).isNull();
    assertThat(failed("[2025-10-20 09:00:00] server_args=ServerArgs(tokenizer_path='x', tp"))
        .startsWith("model_path");
  }

  @Test
  void vllmEngineConfigLine() {
    ContextLine c =
        parsed(
            "(EngineCore_0 pid=2095613) INFO 04-17 23:05:00 [core.py:61] Initializing a V1 LLM"
                + " engine (v0.10.1) with config: model='meta-llama/Llama-3.1-8B-Instruct',"
                + " speculative_config=SpeculativeConfig(method='eagle3',"
                + " model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3),"
                + " tokenizer='meta-llama/Llama-3.1-8B-Instruct', skip_tokenizer_init=False,"
                + " tokenizer_mode=auto, revision=None, dtype=torch.bfloat16,"
                + " max_seq_len=8192, download_dir=None, load_format=auto,"
                + " tensor_parallel_size=2, pipeline_parallel_size=1, quantization=None,"
                + " enforce_eager=False, kv_cache_dtype=auto, device_config=cuda,"
                + " decoding_config=DecodingConfig(backend='auto', reasoning_backend=''),"
                + " compilation_config={\"level\":3,\"splitting_ops\":[\"vllm.unified_attention\"],"
                + "\"cudagraph_capture_sizes\":[512,504");
    assertThat(c.format()).isEqualTo("vllm.engine_config");
    assertThat(c.vllmStamp().day()).isEqualTo(MonthDay.of(4, 17));
    ContextFields f = c.fields();
    assertThat(f.engine()).isEqualTo("VLLM");
    assertThat(f.engineVersion()).isEqualTo("0.10.1");
    assertThat(f.model()).isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(f.specMethod()).isEqualTo("EAGLE3");
    assertThat(f.draftModel()).isEqualTo("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B");
    assertThat(f.numDraftTokens()).isEqualTo(3);
    assertThat(f.tp()).isEqualTo(2);
    assertThat(f.cudaGraph()).isTrue();
    assertThat(f.extra())
        .containsEntry("dtype", "torch.bfloat16")
        .containsEntry("max_seq_len", "8192");
  }

  @Test
  void vllmV0EngineWithoutSpeculation() {
    ContextFields f =
        parsed(
                "INFO 01-14 03:08:50 llm_engine.py:234] Initializing an LLM engine (v0.6.6) with"
                    + " config: model='/workspace/models/Qwen2-0.5B', speculative_config=None,"
                    + " tensor_parallel_size=1, pipeline_parallel_size=2, enforce_eager=True")
            .fields();
    assertThat(f.specMethod()).isEqualTo("NONE");
    assertThat(f.tp()).isEqualTo(1);
    assertThat(f.cudaGraph()).isFalse();
    assertThat(f.engineVersion()).isEqualTo("0.6.6");
  }

  @Test
  void vllmNonDefaultArgs() {
    ContextLine c =
        parsed(
            "INFO 06-17 20:29:40 [cli_args.py:309] non-default args: {'host': '0.0.0.0',"
                + " 'model': 'meta-llama/Llama-3.3-70B-Instruct', 'seed': 42, 'max_model_len':"
                + " 4096, 'tensor_parallel_size': 4, 'speculative_config': {'model':"
                + " 'meta-llama/Llama-3.2-1B', 'num_speculative_tokens': 5}}");
    assertThat(c.format()).isEqualTo(VllmConfigParser.NON_DEFAULT_ARGS);
    ContextFields f = c.fields();
    assertThat(f.model()).isEqualTo("meta-llama/Llama-3.3-70B-Instruct");
    assertThat(f.tp()).isEqualTo(4);
    assertThat(f.specMethod()).isEqualTo("DRAFT_MODEL");
    assertThat(f.draftModel()).isEqualTo("meta-llama/Llama-3.2-1B");
    assertThat(f.numDraftTokens()).isEqualTo(5);
    assertThat(f.extra()).containsEntry("max_model_len", "4096");
    ContextFields plain =
        parsed("INFO 06-17 20:29:40 [cli_args.py:309] non-default args: {'model': 'm'}").fields();
    assertThat(plain.specMethod()).isEqualTo("NONE");
    assertThat(plain.tp()).isEqualTo(1);
  }

  @Test
  void pyReprReadsNestedValuesAndSurvivesCutText() {
    Map<String, Object> m =
        PyRepr.kwargs(
            "a='x, y', b=None, c=True, d=[1, 2], e={'k': (3, 4)}, f=Cfg(g=1.5), h=cuda:1");
    assertThat(m.get("a")).isEqualTo("x, y");
    assertThat(m).containsKey("b");
    assertThat(m.get("b")).isNull();
    assertThat(m.get("c")).isEqualTo(true);
    assertThat(m.get("d")).isEqualTo(java.util.List.of(1L, 2L));
    assertThat(m.get("f")).isEqualTo(Map.of(PyRepr.TYPE, "Cfg", "g", 1.5));
    assertThat(m.get("h")).isEqualTo("cuda:1");
    assertThat(PyRepr.kwargs("a=1, b='unterminated")).containsEntry("a", 1L);
  }
}
