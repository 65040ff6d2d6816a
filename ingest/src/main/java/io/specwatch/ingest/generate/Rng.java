package io.specwatch.ingest.generate;

import java.util.Map;
import java.util.SplittableRandom;

/**
 * Deterministic randomness: SplitMix64 ({@link SplittableRandom}, a specified algorithm) with our
 * own Gaussian and binomial sampling, so the same seed gives the same bytes on every JDK.
 */
final class Rng {

  private final SplittableRandom random;

  Rng(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** A seed derived from a parent seed and a name (stable: String.hashCode is specified). */
  static long derive(long seed, String name) {
    return mix(seed ^ mix(name.hashCode() * 0x9E3779B97F4A7C15L + name.length()));
  }

  static long derive(long seed, long value) {
    return mix(seed ^ mix(value + 0x632BE59BD9B4E019L));
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  double uniform() {
    return random.nextDouble();
  }

  int nextInt(int bound) {
    return random.nextInt(bound);
  }

  boolean chance(double p) {
    return random.nextDouble() < p;
  }

  /** Standard normal (Box-Muller, one value per call). */
  double gaussian() {
    double u1 = 1.0 - random.nextDouble();
    double u2 = random.nextDouble();
    return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  /** Binomial(n, p): exact for small n, a rounded, clamped normal approximation above 40. */
  long binomial(long n, double p) {
    if (n <= 0 || p <= 0) {
      return 0;
    }
    if (p >= 1) {
      return n;
    }
    if (n <= 40) {
      long k = 0;
      for (long i = 0; i < n; i++) {
        if (random.nextDouble() < p) {
          k++;
        }
      }
      return k;
    }
    double mean = n * p;
    double sd = Math.sqrt(n * p * (1 - p));
    long k = Math.round(mean + sd * gaussian());
    return Math.max(0, Math.min(n, k));
  }

  /** Picks a key with probability proportional to its weight. */
  String weighted(Map<String, Double> weights) {
    double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    double x = random.nextDouble() * total;
    String last = null;
    for (Map.Entry<String, Double> e : weights.entrySet()) {
      last = e.getKey();
      x -= e.getValue();
      if (x < 0) {
        return last;
      }
    }
    return last;
  }

  /** A hex string of {@code chars} characters. */
  String hex(int chars) {
    StringBuilder sb = new StringBuilder(chars);
    for (int i = 0; i < chars; i++) {
      sb.append(Character.forDigit(random.nextInt(16), 16));
    }
    return sb.toString();
  }
}
