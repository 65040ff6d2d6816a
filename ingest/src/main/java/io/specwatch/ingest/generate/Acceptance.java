package io.specwatch.ingest.generate;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per prompt category: the conditional acceptance probability of each draft position (position i is
 * accepted with probability alpha[i] given positions 0..i-1 were), and how often the category
 * occurs. Probabilities decay with the position, as measured by engines.
 *
 * @param alphas category to conditional per-position acceptance (length = draft tokens k)
 * @param weights category to relative frequency
 */
public record Acceptance(Map<String, List<Double>> alphas, Map<String, Double> weights) {

  public Acceptance {
    alphas = copy(alphas);
    weights = copy(weights);
    if (!alphas.keySet().equals(weights.keySet()) || alphas.isEmpty()) {
      throw new IllegalArgumentException("categories of alphas and weights differ: " + this);
    }
  }

  private static <V> Map<String, V> copy(Map<String, V> m) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }

  /** Expected accept length tau of a category: 1 + sum over i of prod(alpha[0..i]). */
  public double expectedTau(String category) {
    double tau = 1;
    double reach = 1;
    for (double a : alphas.get(category)) {
      reach *= a;
      tau += reach;
    }
    return tau;
  }

  /** Expected tau over the category mix. */
  public double expectedTau() {
    double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    double tau = 0;
    for (Map.Entry<String, Double> e : weights.entrySet()) {
      tau += e.getValue() / total * expectedTau(e.getKey());
    }
    return tau;
  }

  /** Unconditional probability that draft position i is accepted, over the mix. */
  public double positionAcceptance(int position) {
    double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    double p = 0;
    for (Map.Entry<String, Double> e : weights.entrySet()) {
      double reach = 1;
      List<Double> a = alphas.get(e.getKey());
      for (int i = 0; i <= position && i < a.size(); i++) {
        reach *= a.get(i);
      }
      p += e.getValue() / total * (position < a.size() ? reach : 0);
    }
    return p;
  }

  /** Draft tokens per cycle (length of the per-position lists). */
  public int draftTokens() {
    return alphas.values().iterator().next().size();
  }

  /** Every category's alpha multiplied by {@code factor} (capped at 1), or all 0 for factor 0. */
  public Acceptance scaled(double factor) {
    Map<String, List<Double>> out = new LinkedHashMap<>();
    alphas.forEach((c, a) -> out.put(c, a.stream().map(x -> Math.min(1.0, x * factor)).toList()));
    return new Acceptance(out, weights);
  }
}
