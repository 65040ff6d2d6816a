package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventIdsTest {

  @Test
  void pinnedValues() {
    // MurmurHash3 x64 128 (seed 0) of "h\0s\0i\0" + "42\0line", as Guava 33's
    // Hashing.murmur3_128().hashBytes(material).toString() prints it; pinned so ids never drift
    String id = EventIds.of("h", "s", "i", 42, "line");
    assertThat(id).isEqualTo("cc9073f81cb02809a82084d350c9d775");
    assertThat(EventIds.of("h", "s", "i", 42, "line")).isEqualTo(id);
    assertThat(
            EventIds.of(
                "gpu-1",
                "/logs/a.log",
                "fp",
                200,
                "[2025-10-20 09:00:00 TP0] Decode batch. #running-req: 1, accept len: 2.50, ü µ"))
        .isEqualTo("df4a26750a6a701df8649480249bef07");
    assertThat(EventIds.of("h", "s", "i", 43, "line")).isNotEqualTo(id);
    assertThat(EventIds.of("h", "s", "i", 42, "line2")).isNotEqualTo(id);
    assertThat(EventIds.of("h", "s", "i", 4, "2\0line")).isNotEqualTo(id);
  }

  @Test
  void everyIdIsTheHashOfTheJoinedMaterialWhateverTheOrderOfSources() {
    // the per-thread fixed part must follow a change of host, source or identity, including
    // strings equal in text but not in identity and prefixes whose concatenation is the same
    String[][] sources = {
      {"h", "s", "i"},
      {"h", "s", "j"},
      {"h", "t", "i"},
      {"g", "s", "i"},
      {"hs", "", "i"},
      {"h", "si", ""},
      {new String("h"), new String("s"), new String("i")},
      {"ü", "/var/log/ä.log", "x"},
      {"h".repeat(300), "/var/log/".repeat(80), "i"}
    };
    java.util.Random random = new java.util.Random(7);
    for (int n = 0; n < 400; n++) {
      String[] src = sources[random.nextInt(sources.length)];
      long offset =
          switch (random.nextInt(4)) {
            case 0 -> random.nextInt(10);
            case 1 -> Long.MAX_VALUE - random.nextInt(3);
            case 2 -> -random.nextInt(1_000_000);
            default -> random.nextInt(1_000_000);
          };
      String line =
          "line "
              + random.nextInt(50)
              + (random.nextBoolean() ? " µ" : "")
              + "x".repeat(random.nextInt(3) == 0 ? random.nextInt(3000) : 0);
      String material = src[0] + "\0" + src[1] + "\0" + src[2] + "\0" + offset + "\0" + line;
      assertThat(EventIds.of(src[0], src[1], src[2], offset, line))
          .as("%s", material)
          .isEqualTo(
              EventIds.ofMaterial(material.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
          .hasSize(32)
          .matches("[0-9a-f]{32}");
    }
  }

  @Test
  void fingerprintDependsOnFirstLineOnly(@TempDir Path dir) throws IOException {
    Path a = dir.resolve("a.log");
    Path b = dir.resolve("b.log");
    Files.writeString(a, "first line\nsecond\n");
    Files.writeString(b, "first line\nother second\nthird\n");
    assertThat(FileFingerprint.of(a)).isEqualTo(FileFingerprint.of(b)).hasSize(16);
    Files.writeString(b, "first line!\n");
    assertThat(FileFingerprint.of(b)).isNotEqualTo(FileFingerprint.of(a));
  }
}
