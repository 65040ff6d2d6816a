package io.specwatch.ingest.generate;

/**
 * Step-time model of one deployment segment. Times are at batch size 1 and grow by {@code
 * batchSlope} (relative) per extra running request; the draft phase grows half as fast.
 *
 * @param tArMs non-speculative decode step time t_AR at batch 1 (the baseline)
 * @param draftMsPerStep draft time per draft step at batch 1 (0 for n-gram)
 * @param verifyMs target verify pass at batch 1
 * @param overheadMs other per-cycle time (sampling, scheduling)
 * @param batchSlope relative step-time increase per extra running request
 * @param cycleNoise relative standard deviation of one cycle's time
 * @param windowNoise relative standard deviation of a one-minute system-state factor (clocks,
 *     thermals, PCIe) shared by every cycle of that minute
 */
public record PerfModel(
    double tArMs,
    double draftMsPerStep,
    double verifyMs,
    double overheadMs,
    double batchSlope,
    double cycleNoise,
    double windowNoise) {

  public PerfModel {
    if (!(tArMs > 0) || draftMsPerStep < 0 || verifyMs < 0 || overheadMs < 0) {
      throw new IllegalArgumentException("step times must be positive: " + this);
    }
  }

  /** Plain decode step time at a batch size. */
  public double tAr(int batch) {
    return tArMs * (1 + batchSlope * (batch - 1));
  }

  /** Draft phase of one cycle at a batch size. */
  public double draft(int batch, int steps) {
    return draftMsPerStep * steps * (1 + 0.5 * batchSlope * (batch - 1));
  }

  /** Verify phase of one cycle at a batch size. */
  public double verify(int batch) {
    return verifyMs * (1 + batchSlope * (batch - 1));
  }

  /** Whole speculative cycle at a batch size, before noise. */
  public double cycle(int batch, int steps) {
    return draft(batch, steps) + verify(batch) + overheadMs;
  }

  public PerfModel withVerifyMs(double ms) {
    return new PerfModel(
        tArMs, draftMsPerStep, ms, overheadMs, batchSlope, cycleNoise, windowNoise);
  }
}
