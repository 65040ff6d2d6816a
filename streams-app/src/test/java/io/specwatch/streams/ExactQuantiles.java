package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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

  /** Asserts {@code actual} is a quantile of rank within {@code rank +/- RANK_ERROR}. */
  void assertWithinBound(Double actual, double rank) {
    double eps = WeightedQuantiles.RANK_ERROR;
    assertThat(actual)
        .as("p%s within rank error %s", rank * 100, eps)
        .isNotNull()
        .isBetween(quantile(rank - eps), quantile(rank + eps));
  }
}
