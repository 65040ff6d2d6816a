package io.specwatch.sink.rows;

import io.specwatch.schemas.RunContext;
import java.time.Instant;
import java.util.List;

/** {@link RunContext} to one row of {@code run_contexts} (V005). */
public final class RunContextRows implements RowMapping<RunContext> {

  public static final String TABLE = "run_contexts";

  private static final List<String> COLUMNS =
      DecodeEventRows.withProvenance(
          "context_id",
          "deployment_id",
          "observed_at",
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
          "env_keys",
          "env_values",
          "extra_keys",
          "extra_values");

  @Override
  public Class<RunContext> type() {
    return RunContext.class;
  }

  /** When the context was observed in the log or scrape ({@code observed_at}). */
  @Override
  public Instant eventTime(RunContext c) {
    return c.getObservedAt();
  }

  @Override
  public List<String> columns() {
    return COLUMNS;
  }

  @Override
  public void write(RunContext c, Source source, Instant insertedAt, ColumnWriter out) {
    out.string("context_id", c.getContextId());
    out.string("deployment_id", c.getDeploymentId());
    out.dateTimeMs("observed_at", c.getObservedAt());
    out.string("engine", c.getEngine().name());
    out.nullableString("engine_version", c.getEngineVersion());
    out.nullableString("engine_commit", c.getEngineCommit());
    out.string("model", c.getModel());
    out.nullableString("draft_model", c.getDraftModel());
    out.nullableString("draft_model_version", c.getDraftModelVersion());
    out.string("spec_method", c.getSpecMethod());
    out.nullableInt32("num_steps", c.getNumSteps());
    out.nullableInt32("topk", c.getTopk());
    out.nullableInt32("num_draft_tokens", c.getNumDraftTokens());
    out.nullableString("gpu_model", c.getGpuModel());
    out.nullableInt32("gpu_count", c.getGpuCount());
    out.nullableString("interconnect", c.getInterconnect());
    out.nullableString("hardware_class", c.getHardwareClass());
    out.int32("tp", c.getTp());
    out.int32("dp", c.getDp());
    out.int32("ep", c.getEp());
    out.nullableBool("cuda_graph", c.getCudaGraph());
    MapColumns.write("env", c.getEnv(), out);
    MapColumns.write("extra", c.getExtra(), out);
    RowMapping.provenance(source, insertedAt, out);
  }
}
