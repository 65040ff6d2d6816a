package io.specwatch.sink.finetune;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Balances the selection across categories: categories in name order take turns, each turn takes
 * the category's next-worst candidate (lowest relative tau first), until {@code limit} are taken or
 * every category is exhausted. So each category gets {@code limit / categories} when it has enough
 * candidates, and what a small category cannot fill goes to the others.
 */
final class Balancer {

  private Balancer() {}

  /** {@code byCategory}: each list worst first. Returns the selection in turn order. */
  static List<Selection.Selected> balance(Map<String, List<Candidate>> byCategory, int limit) {
    Map<String, List<Candidate>> sorted = new TreeMap<>(byCategory);
    List<Selection.Selected> out = new ArrayList<>();
    for (int round = 0; out.size() < limit; round++) {
      boolean tookAny = false;
      for (List<Candidate> candidates : sorted.values()) {
        if (round < candidates.size() && out.size() < limit) {
          out.add(new Selection.Selected(candidates.get(round), round + 1));
          tookAny = true;
        }
      }
      if (!tookAny) {
        break;
      }
    }
    return List.copyOf(out);
  }
}
