package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UniqueNamesTest {

  @Test
  void namesAreDistinctAndValidTopicAndDatabaseNames() {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      names.add(UniqueNames.uniqueName("it_db"));
    }

    assertThat(names).hasSize(1000);
    assertThat(names).allMatch(n -> n.matches("it_db_[0-9a-f]{12}"));
  }

  @Test
  void rejectsPrefixesThatWouldMakeInvalidNames() {
    assertThatThrownBy(() -> UniqueNames.uniqueName("bad name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad name");
    assertThatThrownBy(() -> UniqueNames.uniqueName(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> UniqueNames.uniqueName(null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
