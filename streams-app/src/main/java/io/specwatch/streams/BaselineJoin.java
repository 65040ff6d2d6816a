package io.specwatch.streams;

import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.HeapStateCache;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The baseline stage, on rows keyed by {@link ComparisonKey} (after the {@code baseline-by-key}
 * repartition, so every deployment's rows of one key meet in one task).
 *
 * <ul>
 *   <li>A non-speculative per-bucket row teaches: its mean cycle time is t_AR of its key for its
 *       window; it is added to {@code baseline-store} and passes with {@code none:non-speculative}.
 *   <li>A speculative row takes the learned entry with the latest window start before its own and
 *       at most {@code baselineMaxAge} older ({@code learned:<deployment>@<window start>}), else
 *       the configured static baseline of its key ({@code static}), else {@code none:no-baseline}.
 *       See {@link #apply} for the numbers.
 *   <li>A row whose source was already decided upstream ({@code none:...}) passes unchanged.
 * </ul>
 *
 * Output rows are keyed by deploymentId again.
 */
final class BaselineJoin implements Processor<String, WindowResult, String, WindowResult> {
  static final String NON_SPECULATIVE = "none:non-speculative";
  static final String NO_BASELINE = "none:no-baseline";
  static final String STATIC = "static";

  /** Comparison keys whose learned baselines stay deserialized on the heap. */
  static final int HEAP_KEYS = 4096;

  private final StaticBaselines statics;
  private final long maxAgeMs;
  private ProcessorContext<String, WindowResult> context;
  // write-through heap copies of the baseline store (only this processor writes it): a row's get
  // no longer decodes up to 64 entries (LearnedBaselines is immutable, its serde lossless)
  private HeapStateCache<LearnedBaselines> store;

  BaselineJoin(StaticBaselines statics, Duration maxAge) {
    this.statics = statics;
    this.maxAgeMs = maxAge.toMillis();
  }

  @Override
  public void init(ProcessorContext<String, WindowResult> context) {
    this.context = context;
    KeyValueStore<String, LearnedBaselines> kv =
        context.getStateStore(TopologyNames.BASELINE_STORE);
    this.store = new HeapStateCache<>(kv, HEAP_KEYS);
  }

  @Override
  public void process(Record<String, WindowResult> record) {
    WindowResult row = record.value();
    if (row.getBaselineSource() == null) {
      if (!row.getSpecEnabled()) {
        learn(record.key(), row);
        row = WindowResultCopies.withBaselineSource(row, NON_SPECULATIVE);
      } else {
        row = meet(ComparisonKey.parse(record.key()), row);
      }
    }
    context.forward(record.withKey(row.getDeploymentId()).withValue(row));
  }

  private void learn(String key, WindowResult row) {
    LearnedBaselines known = store.get(key);
    LearnedBaselines.Entry entry =
        new LearnedBaselines.Entry(
            row.getWindowStart().toEpochMilli(),
            row.getMeanCycleMs(),
            row.getCycles(),
            row.getDeploymentId());
    store.put(key, (known == null ? LearnedBaselines.empty() : known).with(entry));
  }

  private WindowResult meet(ComparisonKey key, WindowResult row) {
    LearnedBaselines known = store.get(key.toString());
    Optional<LearnedBaselines.Entry> learned =
        known == null
            ? Optional.empty()
            : known.forWindow(row.getWindowStart().toEpochMilli(), maxAgeMs);
    if (learned.isPresent()) {
      LearnedBaselines.Entry e = learned.get();
      return apply(
          row,
          e.stepMs(),
          "learned:" + e.deploymentId() + "@" + Instant.ofEpochMilli(e.windowStartMs()));
    }
    Optional<Double> configured = statics.lookup(key);
    return configured.isPresent()
        ? apply(row, configured.get(), STATIC)
        : WindowResultCopies.withBaselineSource(row, NO_BASELINE);
  }

  /**
   * {@code row} with its baseline fields filled from t_AR = {@code stepMs}: baselineTokS = 1000 /
   * t_AR; with a mean cycle time T_cyc: break-even tau* = T_cyc / t_AR; with a mean tau too:
   * speedup S = tau * t_AR / T_cyc and margin tau - tau*.
   */
  static WindowResult apply(WindowResult row, double stepMs, String source) {
    Double cycleMs = row.getMeanCycleMs();
    Double tau = row.getMeanAcceptLength();
    Double breakEven = row.getBreakEvenAcceptLength();
    Double speedup = row.getSpeedup();
    Double margin = row.getAcceptMargin();
    if (cycleMs != null && cycleMs > 0) {
      breakEven = cycleMs / stepMs;
      if (tau != null) {
        speedup = tau * stepMs / cycleMs;
        margin = tau - breakEven;
      }
    }
    return WindowResultCopies.withBaseline(
        row, source, stepMs, 1000.0 / stepMs, speedup, breakEven, margin);
  }
}
