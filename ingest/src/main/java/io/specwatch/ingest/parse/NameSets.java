package io.specwatch.ingest.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every subset of a format's candidate field names, built once: {@link #get} returns the same
 * instance for the same mask, so a line's {@link MetricLine#typedNames} costs no allocation and
 * {@link RawFields#without} finds its kept result by identity. Each is a {@link NameSet}: its
 * lookups compare the parsers' constant names by reference first.
 */
public final class NameSets {

  private final List<Set<String>> sets;

  /** The subsets of {@code names} (at most 10), indexed by mask: bit i stands for names[i]. */
  public NameSets(String... names) {
    if (names.length > 10) {
      throw new IllegalArgumentException("at most 10 names, got " + names.length);
    }
    List<Set<String>> all = new ArrayList<>(1 << names.length);
    for (int mask = 0; mask < 1 << names.length; mask++) {
      List<String> s = new ArrayList<>();
      for (int i = 0; i < names.length; i++) {
        if ((mask & (1 << i)) != 0) {
          s.add(names[i]);
        }
      }
      all.add(new NameSet(s.toArray(new String[0])));
    }
    sets = List.copyOf(all);
  }

  /** The subset of the names whose bits are set in {@code mask}. */
  public Set<String> get(int mask) {
    return sets.get(mask);
  }
}
