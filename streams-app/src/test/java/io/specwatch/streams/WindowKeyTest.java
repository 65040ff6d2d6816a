package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link WindowKey}'s hand-written equals and hashCode are those a record generates. */
class WindowKeyTest {
  /** The same components with the generated methods (the old path). */
  private record Generated(String deploymentId, long startMs) {}

  @Test
  void equalsAndHashCodeAreTheGeneratedOnes() {
    Random r = new Random(11);
    String[] ids = {"kimi-eagle3-00001", "kimi-eagle3-00002", "", "dép-ü", null};
    for (int i = 0; i < 20_000; i++) {
      String idA = ids[r.nextInt(ids.length)];
      String idB = r.nextBoolean() ? idA : ids[r.nextInt(ids.length)];
      if (idB != null && r.nextBoolean()) {
        idB = new String(idB.toCharArray()); // equal, not the same instance
      }
      long startA = r.nextBoolean() ? 60_000L * r.nextInt(5) : r.nextLong();
      long startB = r.nextBoolean() ? startA : 60_000L * r.nextInt(5);
      WindowKey a = new WindowKey(idA, startA);
      WindowKey b = new WindowKey(idB, startB);
      Generated ga = new Generated(idA, startA);
      Generated gb = new Generated(idB, startB);
      assertThat(a.equals(b)).as("%s vs %s", a, b).isEqualTo(ga.equals(gb));
      assertThat(a.hashCode()).isEqualTo(ga.hashCode());
    }
    WindowKey k = new WindowKey("d", 1);
    assertThat(k.equals(null)).isFalse();
    assertThat(k.equals("d")).isFalse();
    assertThat(k).isEqualTo(k);
  }
}
