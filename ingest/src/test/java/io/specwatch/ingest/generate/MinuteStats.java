package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Collects per-deployment, per-minute truth from the ticks (test helper). */
final class MinuteStats implements TickHandler {

  /** One minute of one deployment. */
  static final class Minute {
    long cycles;
    long accepted;
    long passes;
    double passMs;
    double verifyMs;

    double tau() {
      return 1.0 + (double) accepted / cycles;
    }

    double cycleMs() {
      return passMs / passes;
    }

    double verifyMs() {
      return verifyMs / passes;
    }

    /** Effective tok/s per request: 1000 tau / T_cyc. */
    double tokS() {
      return 1000.0 * tau() / cycleMs();
    }
  }

  final Map<String, TreeMap<Long, Minute>> minutes = new TreeMap<>();

  @Override
  public void begin(DeploymentSpec d) {
    minutes.put(d.id(), new TreeMap<>());
  }

  @Override
  public void tick(DeploymentSpec d, Tick t) {
    Minute m =
        minutes.get(d.id()).computeIfAbsent(t.start().getEpochSecond() / 60, x -> new Minute());
    m.cycles += t.cycles();
    m.accepted += t.accepted();
    m.passes += t.passes();
    m.passMs += t.cycleMs() * t.passes();
    m.verifyMs += t.verifyMs() * t.passes();
  }

  @Override
  public void end(DeploymentSpec d) {}

  @Override
  public void flush() {}

  /** Whole minutes of a deployment in [from, to). */
  List<Minute> between(String id, Instant from, Instant to) {
    return new ArrayList<>(
        minutes.get(id).subMap(from.getEpochSecond() / 60, to.getEpochSecond() / 60).values());
  }

  /** All minutes merged. */
  Minute total(String id) {
    Minute all = new Minute();
    for (Minute m : minutes.get(id).values()) {
      all.cycles += m.cycles;
      all.accepted += m.accepted;
      all.passes += m.passes;
      all.passMs += m.passMs;
      all.verifyMs += m.verifyMs;
    }
    return all;
  }

  /** Welch's t statistic of two samples. */
  static double welchT(List<Double> a, List<Double> b) {
    double ma = mean(a);
    double mb = mean(b);
    double va = variance(a, ma);
    double vb = variance(b, mb);
    return (ma - mb) / Math.sqrt(va / a.size() + vb / b.size());
  }

  static double mean(List<Double> x) {
    return x.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  private static double variance(List<Double> x, double mean) {
    double s = 0;
    for (double v : x) {
      s += (v - mean) * (v - mean);
    }
    return s / (x.size() - 1);
  }
}
