package io.specwatch.ingest.generate;

/**
 * Per-phase profile lines as in the seeds ({@code Draft: 0.61 ms/cyc (2.0%) Target verify: 28.96
 * ms/cyc (97.0%) Other: 0.30 ms/cyc (1.0%)}, shared contract item 3), one per {@link #PASSES}
 * passes, means over those passes, in {@code profile.log}.
 */
final class PhaseProfileWriter implements FormatWriter {

  static final int PASSES = 40;

  private IntervalTotals totals = new IntervalTotals(0);

  @Override
  public void tick(Tick t, LineSink out) {
    totals.add(t);
    if (totals.passes < PASSES) {
      return;
    }
    IntervalTotals s = totals;
    totals = totals.reset();
    double draft = s.draftMs / s.passes;
    double verify = s.verifyMs / s.passes;
    double other = s.overheadMs / s.passes;
    double cycle = draft + verify + other;
    out.line(
        LineSink.PROFILE_LOG,
        t.end(),
        Fmt.sglangPrefix(t.end(), "TP0")
            + item("Draft", draft, cycle)
            + " "
            + item("Target verify", verify, cycle)
            + " "
            + item("Other", other, cycle));
  }

  private static String item(String name, double ms, double cycle) {
    return name + ": " + Fmt.f2(ms) + " ms/cyc (" + Fmt.f(1, 100 * ms / cycle) + "%)";
  }
}
