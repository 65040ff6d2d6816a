package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.assertj.core.data.Percentage;

/** Exact weighted (inclusive) quantiles of known data, to check sketch answers against. */
final class ExactQuantiles {
  private record Point(double value, long weight) {}

  private final List<Point> points = new ArrayList<>();

  ExactQuantiles add(double value, long weight) {
    points.add(new Point(value, weight));
    return this;
  }

  /** Smallest value whose cumulative weight reaches {@code rank} of the total (clamped). */
  double quantile(double rank) {
    List<Point> sorted = new ArrayList<>(points);
    sorted.sort(Comparator.comparingDouble(Point::value));
    long total = sorted.stream().mapToLong(Point::weight).sum();
    double target = Math.min(1.0, Math.max(0.0, rank)) * total;
    long cumulative = 0;
    for (Point p : sorted) {
      cumulative += p.weight();
      if (cumulative >= target) {
        return p.value();
      }
    }
    return sorted.get(sorted.size() - 1).value();
  }

  /** AssertJ's offset for a percentile reported by {@link WeightedQuantiles}: 1% of the value. */
  static final Percentage BOUND =
      Percentage.withPercentage(WeightedQuantiles.RELATIVE_ACCURACY * 100);

  /**
   * Asserts {@code actual} is within the DDSketch bound of the true value at {@code rank}: at most
   * 1% away from it, relatively (the rank itself is exact).
   */
  void assertWithinBound(Double actual, double rank) {
    double exact = quantile(rank);
    assertThat(actual)
        .as("p%s within %s relative of %s", rank * 100, WeightedQuantiles.RELATIVE_ACCURACY, exact)
        .isNotNull()
        .isCloseTo(exact, BOUND);
  }
}
