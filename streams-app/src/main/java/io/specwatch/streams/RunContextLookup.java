package io.specwatch.streams;

import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;

/**
 * Reads the run context in force at a closed window's end (its last millisecond) from the
 * run-context table's versioned store (the same task: both topics are keyed by deploymentId and
 * co-partitioned), sets {@code runContextId} and re-keys the row by its {@link ComparisonKey} for
 * the baseline stage. A window closes at end + grace at the earliest, and after a silent spell only
 * when its deployment's next event comes, possibly after a restart with another context: the
 * context at the window's end, not the newest, is the one its cycles ran under. When no context was
 * in force at the window's end (the first one was observed a little later, or the window is older
 * than the store's history), the newest applies.
 *
 * <p>Rows that cannot meet a baseline get {@code baselineSource = none:<reason>} here and keep the
 * deploymentId key: {@code no-run-context}, {@code no-model} (a blank model), {@code no-tp} (a
 * tensor-parallel size below 1), {@code no-hardware-class} (neither hardwareClass nor gpuCount and
 * gpuModel), {@code no-batch-size} (a {@code *} bucket row without running requests: its bucket is
 * the one of its cycle-weighted mean batch size). Non-speculative rows that cannot teach a baseline
 * (category rows, total rows, no cycle time, no context) get {@code none:non-speculative}.
 *
 * <p>A store lookup instead of a DSL stream-table join: the rows come from a re-keyed stream (the
 * window key is unwrapped), and a DSL join would add a needless repartition topic.
 */
final class RunContextLookup implements Processor<String, WindowResult, String, WindowResult> {
  private ProcessorContext<String, WindowResult> context;
  private VersionedKeyValueStore<String, RunContext> runContexts;
  // the previous row's window and context: a closed window's rows come one after another (one
  // emit of the window aggregator, no run-context update in between), so its other rows reuse it
  private String lastDeployment;
  private long lastWindowEndMs;
  private RunContext lastContext;

  @Override
  public void init(ProcessorContext<String, WindowResult> context) {
    this.context = context;
    this.runContexts = context.getStateStore(TopologyNames.RUN_CONTEXT_STORE);
    this.lastDeployment = null;
    this.lastContext = null;
  }

  @Override
  public void process(Record<String, WindowResult> record) {
    String deployment = record.value().getDeploymentId();
    long windowEndMs = record.value().getWindowEnd().toEpochMilli();
    RunContext rc;
    if (windowEndMs == lastWindowEndMs && deployment.equals(lastDeployment)) {
      rc = lastContext;
    } else {
      rc = contextAt(deployment, windowEndMs);
      lastDeployment = deployment;
      lastWindowEndMs = windowEndMs;
      lastContext = rc;
    }
    WindowResult row =
        rc == null
            ? record.value()
            : WindowResultCopies.withRunContextId(record.value(), rc.getContextId());
    boolean spec = row.getSpecEnabled();
    if (!spec && !canTeach(row)) {
      forward(record, row, row.getDeploymentId(), BaselineJoin.NON_SPECULATIVE);
      return;
    }
    if (rc == null) {
      forward(
          record,
          row,
          row.getDeploymentId(),
          spec ? "none:no-run-context" : BaselineJoin.NON_SPECULATIVE);
      return;
    }
    Optional<String> hardware = hardwareClass(rc);
    Optional<String> bucket =
        BatchBuckets.isBucket(row.getBatchBucket())
            ? Optional.of(row.getBatchBucket())
            : BatchBuckets.ofMean(row.getMeanBatchSize());
    String reason =
        rc.getModel().isBlank()
            ? "none:no-model"
            : rc.getTp() < 1
                ? "none:no-tp"
                : hardware.isEmpty()
                    ? "none:no-hardware-class"
                    : bucket.isEmpty() ? "none:no-batch-size" : null;
    if (reason != null) {
      forward(record, row, row.getDeploymentId(), spec ? reason : BaselineJoin.NON_SPECULATIVE);
      return;
    }
    ComparisonKey key = new ComparisonKey(rc.getModel(), hardware.get(), rc.getTp(), bucket.get());
    forward(record, row, key.toString(), null);
  }

  /** The context in force at the window's last millisecond, else the newest, else null. */
  private RunContext contextAt(String deployment, long windowEndMs) {
    VersionedRecord<RunContext> found = runContexts.get(deployment, windowEndMs - 1);
    if (found == null) {
      found = runContexts.get(deployment);
    }
    return found == null ? null : found.value();
  }

  /** Non-speculative rows teach a baseline: per-bucket rows over all categories with T_cyc. */
  static boolean canTeach(WindowResult row) {
    return !row.getSpecEnabled()
        && BatchBuckets.ALL.equals(row.getPromptCategory())
        && BatchBuckets.isBucket(row.getBatchBucket())
        && row.getMeanCycleMs() != null
        && row.getMeanCycleMs() > 0;
  }

  /** RunContext.hardwareClass, else {@code <gpuCount>x<gpuModel>}, else empty. */
  static Optional<String> hardwareClass(RunContext rc) {
    if (rc.getHardwareClass() != null && !rc.getHardwareClass().isBlank()) {
      return Optional.of(rc.getHardwareClass());
    }
    if (rc.getGpuCount() != null && rc.getGpuModel() != null && !rc.getGpuModel().isBlank()) {
      return Optional.of(rc.getGpuCount() + "x" + rc.getGpuModel());
    }
    return Optional.empty();
  }

  private void forward(
      Record<String, WindowResult> record, WindowResult row, String key, String noneReason) {
    WindowResult out =
        noneReason == null ? row : WindowResultCopies.withBaselineSource(row, noneReason);
    // the window end, not the aggregate's timestamp: after a restore that is the changelog's
    // append time (TopologyFactory.WINDOW_CHANGELOG_CONFIG), so results stay identical
    context.forward(
        record.withKey(key).withValue(out).withTimestamp(row.getWindowEnd().toEpochMilli()));
  }
}
