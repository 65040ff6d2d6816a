package io.specwatch.ingest.context;

import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * Merged {@link ContextFields} to the Avro {@link RunContext}. Required fields no source stated are
 * completed with documented placeholders: model {@value #UNKNOWN_MODEL}, specMethod {@value
 * SpecMethods#UNKNOWN}, tp 1 (dp and ep 1 as in the schema), and {@code extra.missing} lists them
 * (e.g. {@code model,spec_method,tp}) so a consumer can tell a placeholder from a statement.
 */
public final class RunContexts {

  public static final String UNKNOWN_MODEL = "unknown";

  /** Key in {@code extra} listing the required fields no source stated. */
  public static final String MISSING_KEY = "missing";

  private RunContexts() {}

  /** The record, with its deterministic contextId (observedAt is not part of the id). */
  public static RunContext build(String deploymentId, ContextFields f, Instant observedAt) {
    List<String> missing = new ArrayList<>();
    if (f.model() == null) {
      missing.add("model");
    }
    if (f.specMethod() == null) {
      missing.add("spec_method");
    }
    if (f.tp() == null) {
      missing.add("tp");
    }
    Map<String, String> extra = new LinkedHashMap<>(f.extra());
    if (!missing.isEmpty()) {
      extra.put(MISSING_KEY, String.join(",", missing));
    } else {
      extra.remove(MISSING_KEY);
    }
    RunContext rc =
        RunContext.newBuilder()
            .setContextId("")
            .setDeploymentId(deploymentId)
            .setObservedAt(observedAt)
            .setEngine(engine(f.engine()))
            .setEngineVersion(f.engineVersion())
            .setEngineCommit(f.engineCommit())
            .setModel(f.model() == null ? UNKNOWN_MODEL : f.model())
            .setDraftModel(f.draftModel())
            .setDraftModelVersion(f.draftModelVersion())
            .setSpecMethod(f.specMethod() == null ? SpecMethods.UNKNOWN : f.specMethod())
            .setNumSteps(f.numSteps())
            .setTopk(f.topk())
            .setNumDraftTokens(f.numDraftTokens())
            .setGpuModel(f.gpuModel())
            .setGpuCount(f.gpuCount())
            .setInterconnect(f.interconnect())
            .setHardwareClass(f.hardwareClass())
            .setTp(f.tp() == null ? 1 : f.tp())
            .setDp(f.dp() == null ? 1 : f.dp())
            .setEp(f.ep() == null ? 1 : f.ep())
            .setCudaGraph(f.cudaGraph())
            .setEnv(f.env() == null ? Map.of() : new TreeMap<>(f.env()))
            .setExtra(new TreeMap<>(extra))
            .build();
    rc.put("contextId", contextId(rc));
    return rc;
  }

  /**
   * Hex SHA-256 (first 16 chars) of the canonical form: every field except contextId and
   * observedAt, in schema order, {@code name=value} per line, maps sorted by key.
   */
  public static String contextId(RunContext rc) {
    StringBuilder canonical = new StringBuilder();
    for (Schema.Field field : rc.getSchema().getFields()) {
      String name = field.name();
      if (name.equals("contextId") || name.equals("observedAt")) {
        continue;
      }
      Object value = rc.get(field.pos());
      if (value instanceof Map<?, ?> m) {
        TreeMap<String, String> sorted = new TreeMap<>();
        m.forEach((k, v) -> sorted.put(String.valueOf(k), String.valueOf(v)));
        value = sorted;
      }
      canonical.append(name).append('=').append(value).append('\n');
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private static Engine engine(String name) {
    if (name == null) {
      return Engine.UNKNOWN;
    }
    try {
      return Engine.valueOf(name.strip().toUpperCase(Locale.ROOT).replace("-", ""));
    } catch (IllegalArgumentException e) {
      return Engine.UNKNOWN;
    }
  }
}
