package io.specwatch.streams.alert;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Jackson's JSON of the alert evaluator's states ({@link JsonStateSerde}'s mapper: record
 * components in declaration order, {@code Double.toString} numbers, {@code null} for a missing
 * value), written by hand: the same bytes without Jackson's per-value bean machinery, which was ~3
 * % of the stream thread (one regression state with its windows, hysteresis states and a last-seen
 * record per deployment window). A value Jackson would write differently (a non-finite double: a
 * quoted string) returns null, and the serde falls back to Jackson. {@code
 * AlertStateJsonProperties} compares the bytes with Jackson's over random states.
 */
final class AlertStateJson {
  private AlertStateJson() {}

  static byte[] hysteresis(Hysteresis.State s) {
    StringBuilder b = new StringBuilder(96);
    hysteresis(b, s);
    return bytes(b);
  }

  static byte[] lastSeen(LastSeen s) {
    StringBuilder b = new StringBuilder(112);
    b.append("{\"lastWindowStart\":").append(s.lastWindowStart());
    b.append(",\"lastWindowEnd\":").append(s.lastWindowEnd());
    b.append(",\"lastArrivalWallMs\":").append(s.lastArrivalWallMs());
    b.append(",\"noDataRaised\":").append(s.noDataRaised()).append('}');
    return bytes(b);
  }

  /** The regression state, or null when a point holds a non-finite value (Jackson writes it). */
  static byte[] regression(RegressionDetector.State s) {
    StringBuilder b =
        new StringBuilder(160 + 170 * (s.reference().size() + s.recent().size() + s.held().size()));
    b.append("{\"reference\":");
    if (!points(b, s.reference())) {
      return null;
    }
    b.append(",\"recent\":");
    if (!points(b, s.recent())) {
      return null;
    }
    b.append(",\"held\":");
    if (!points(b, s.held())) {
      return null;
    }
    b.append(",\"hysteresis\":");
    hysteresis(b, s.hysteresis());
    b.append(",\"windowsSinceRaise\":").append(s.windowsSinceRaise()).append('}');
    return bytes(b);
  }

  private static void hysteresis(StringBuilder b, Hysteresis.State s) {
    b.append("{\"raised\":").append(s.raised());
    b.append(",\"breachStreak\":").append(s.breachStreak());
    b.append(",\"healthyStreak\":").append(s.healthyStreak());
    b.append(",\"streakStart\":").append(s.streakStart()).append('}');
  }

  private static boolean points(StringBuilder b, List<RegressionDetector.MetricPoint> points) {
    b.append('[');
    for (int i = 0; i < points.size(); i++) {
      RegressionDetector.MetricPoint p = points.get(i);
      if (i > 0) {
        b.append(',');
      }
      b.append("{\"windowStart\":").append(p.windowStart());
      b.append(",\"windowEnd\":").append(p.windowEnd());
      if (!number(b.append(",\"verifyMsP50\":"), p.verifyMsP50())
          || !number(b.append(",\"meanCycleMs\":"), p.meanCycleMs())
          || !number(b.append(",\"meanAcceptLength\":"), p.meanAcceptLength())
          || !number(b.append(",\"effectiveTokS\":"), p.effectiveTokS())) {
        return false;
      }
      b.append('}');
    }
    b.append(']');
    return true;
  }

  /** Jackson's {@code writeNumber(double)} ({@code Double.toString}); false if not finite. */
  private static boolean number(StringBuilder b, Double d) {
    if (d == null) {
      b.append("null");
      return true;
    }
    if (!Double.isFinite(d)) {
      return false;
    }
    b.append(Double.toString(d));
    return true;
  }

  private static byte[] bytes(StringBuilder b) {
    return b.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
