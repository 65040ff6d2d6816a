package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The per-window id set: each id added once, whatever its form, across table growth. */
class EventIdSetTest {
  @Test
  void addsEachIdOnceAcrossGrowthAndForms() {
    EventIdSet ids = new EventIdSet();
    Set<String> reference = new HashSet<>();
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      String id =
          switch (i % 4) {
            case 0, 1 -> String.format("%016x%016x", random.nextLong(), random.nextLong());
            case 2 -> String.format("%032x", random.nextInt(3000)); // many repeats, some (0, 0)
            default -> "text-" + random.nextInt(2000);
          };
      assertThat(ids.add(id)).as("add %s", id).isEqualTo(reference.add(id));
    }
    assertThat(ids.size()).isEqualTo(reference.size());
    String zero = "00000000000000000000000000000000"; // packs to (0, 0), the free-slot marker
    assertThat(ids.add(zero)).isEqualTo(reference.add(zero));
    assertThat(ids.add(zero)).isFalse();
    assertThat(ids.size()).isEqualTo(reference.size());
    assertThat(ids.add((String) null)).isTrue();
    assertThat(ids.add((String) null)).isTrue();
  }

  @Test
  void hexPacking() {
    String hex = "0123456789abcdeffedcba9876543210";
    assertThat(EventIdSet.isPackedHex(hex)).isTrue();
    assertThat(EventIdSet.isPackedHex(hex.toUpperCase())).isFalse();
    assertThat(EventIdSet.isPackedHex(hex.substring(1))).isFalse();
    assertThat(EventIdSet.hexLong(hex, 0)).isEqualTo(0x0123456789abcdefL);
    assertThat(EventIdSet.hex(EventIdSet.hexLong(hex, 0), EventIdSet.hexLong(hex, 16)))
        .isEqualTo(hex);
  }
}
