package io.specwatch.ingest.context;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code specwatch.run_context.v1} JSON shape (the log line of instrumented engines and
 * the {@code --run-context} file) into {@link ContextFields}. Keys other than the documented ones
 * (and {@code schema}, {@code ts}) go to {@code extra} as text.
 */
public final class RunContextJson {

  public static final String SCHEMA = "specwatch.run_context.v1";

  private static final Set<String> KNOWN =
      Set.of(
          "schema",
          "ts",
          "deployment",
          "engine",
          "engine_version",
          "engine_commit",
          "model",
          "draft_model",
          "draft_model_version",
          "spec_method",
          "num_steps",
          "topk",
          "num_draft_tokens",
          "gpu_model",
          "gpu_count",
          "interconnect",
          "hardware_class",
          "tp",
          "dp",
          "ep",
          "cuda_graph",
          "env",
          "extra");

  private RunContextJson() {}

  /**
   * The fields of one object.
   *
   * @throws IllegalArgumentException naming the field that has the wrong type or value
   */
  public static ContextFields read(JsonNode o) {
    ContextFields.Builder b = ContextFields.builder();
    b.deployment = text(o, "deployment");
    b.engine = text(o, "engine");
    b.engineVersion = text(o, "engine_version");
    b.engineCommit = text(o, "engine_commit");
    b.model = text(o, "model");
    b.draftModel = text(o, "draft_model");
    b.draftModelVersion = text(o, "draft_model_version");
    String method = text(o, "spec_method");
    b.specMethod = method == null ? null : SpecMethods.normalise(method);
    b.numSteps = count(o, "num_steps", 0);
    b.topk = count(o, "topk", 0);
    b.numDraftTokens = count(o, "num_draft_tokens", 0);
    b.gpuModel = text(o, "gpu_model");
    b.gpuCount = count(o, "gpu_count", 1);
    b.interconnect = text(o, "interconnect");
    b.hardwareClass = text(o, "hardware_class");
    b.tp = count(o, "tp", 1);
    b.dp = count(o, "dp", 1);
    b.ep = count(o, "ep", 1);
    JsonNode graph = o.get("cuda_graph");
    if (graph != null && !graph.isNull()) {
      if (!graph.isBoolean()) {
        throw new IllegalArgumentException("cuda_graph: expected true or false, was " + graph);
      }
      b.cudaGraph = graph.asBoolean();
    }
    b.env = stringMap(o, "env");
    Map<String, String> extra = stringMap(o, "extra");
    if (extra != null) {
      b.extra.putAll(extra);
    }
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      if (!KNOWN.contains(e.getKey())) {
        JsonNode v = e.getValue();
        b.extra.put(e.getKey(), v.isTextual() ? v.asText() : v.toString());
      }
    }
    return b.build();
  }

  private static String text(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isTextual()) {
      String s = n.asText().strip();
      return s.isEmpty() ? null : s;
    }
    if (n.isNumber()) {
      return n.asText();
    }
    throw new IllegalArgumentException(name + ": expected text, was " + n.getNodeType());
  }

  private static Integer count(JsonNode o, String name, int min) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < min) {
      throw new IllegalArgumentException(
          name + ": expected an integer >= " + min + ", was '" + n + "'");
    }
    return n.asInt();
  }

  private static Map<String, String> stringMap(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isObject()) {
      throw new IllegalArgumentException(name + ": expected an object of name to value");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : n.properties()) {
      JsonNode v = e.getValue();
      out.put(e.getKey(), v.isTextual() ? v.asText() : v.toString());
    }
    return out;
  }
}
