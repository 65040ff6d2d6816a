package io.specwatch.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.constraints.UniqueElements;
import org.junit.jupiter.api.Test;

/**
 * {@link NameSet} and {@link NameSets} against {@link LinkedHashSet}: the same members whether a
 * name is asked for by the very instance or by an equal copy (how a parser that cuts names out of
 * the line asks), the same order, size, equality and hash code.
 */
class NameSetProperties {

  @Property(tries = 200)
  void behavesAsALinkedHashSet(
      @ForAll @Size(max = 10) @UniqueElements List<@StringLength(max = 12) String> names,
      @ForAll @Size(max = 8) List<@StringLength(max = 12) String> probes) {
    NameSet set = new NameSet(names.toArray(new String[0]));
    Set<String> expected = new LinkedHashSet<>(names);
    assertThat(set).containsExactlyElementsOf(expected);
    assertThat(set).hasSize(expected.size());
    assertThat(set.equals(expected)).isTrue();
    assertThat(expected.equals(set)).isTrue();
    assertThat(set.hashCode()).isEqualTo(expected.hashCode());
    List<Object> asked = new ArrayList<>(probes);
    for (String n : names) {
      asked.add(n); // the instance
      asked.add(new String(n)); // an equal copy
    }
    asked.add(null);
    asked.add(42);
    for (Object o : asked) {
      assertThat(set.contains(o)).as("contains %s", o).isEqualTo(o != null && expected.contains(o));
    }
  }

  @Property(tries = 50)
  void nameSetsHoldEverySubsetByMaskOnce(@ForAll @IntRange(min = 0, max = 6) int n) {
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = "field " + i;
    }
    NameSets sets = new NameSets(names);
    for (int mask = 0; mask < 1 << n; mask++) {
      Set<String> expected = new LinkedHashSet<>();
      for (int i = 0; i < n; i++) {
        if ((mask & (1 << i)) != 0) {
          expected.add(names[i]);
        }
      }
      assertThat(sets.get(mask)).containsExactlyElementsOf(expected);
      assertThat(sets.get(mask)).isSameAs(sets.get(mask));
    }
  }

  @Test
  void rejectsDuplicatesAndNullsAndCannotChange() {
    assertThatThrownBy(() -> new NameSet("a", "b", new String("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duplicate name a");
    assertThatThrownBy(() -> new NameSet("a", null)).isInstanceOf(NullPointerException.class);
    NameSet set = new NameSet("a", "b");
    assertThatThrownBy(() -> set.add("c")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> set.remove("a")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> set.iterator().remove())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(set).containsExactly("a", "b");
  }
}
