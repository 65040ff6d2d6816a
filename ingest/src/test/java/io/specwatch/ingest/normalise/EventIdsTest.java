package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventIdsTest {

  @Test
  void pinnedValue() {
    // sha256("h\0s\0i\0" + "42\0line") first 32 hex chars; pinned so the id never drifts silently
    String id = EventIds.of("h", "s", "i", 42, "line");
    assertThat(id).isEqualTo(EventIds.of("h", "s", "i", 42, "line")).hasSize(32);
    assertThat(id)
        .isEqualTo(EventIds.sha256Hex("h\0s\0i\u000042\0line".getBytes()).substring(0, 32));
    assertThat(EventIds.of("h", "s", "i", 43, "line")).isNotEqualTo(id);
    assertThat(EventIds.of("h", "s", "i", 42, "line2")).isNotEqualTo(id);
  }

  @Test
  void everyIdIsTheHashOfTheJoinedMaterialWhateverTheOrderOfSources() {
    // the per-thread prefix state must follow a change of host, source or identity, including
    // strings equal in text but not in identity and prefixes whose concatenation is the same
    String[][] sources = {
      {"h", "s", "i"},
      {"h", "s", "j"},
      {"h", "t", "i"},
      {"g", "s", "i"},
      {"hs", "", "i"},
      {"h", "si", ""},
      {new String("h"), new String("s"), new String("i")},
      {"ü", "/var/log/ä.log", "x"}
    };
    java.util.Random random = new java.util.Random(7);
    for (int n = 0; n < 400; n++) {
      String[] src = sources[random.nextInt(sources.length)];
      long offset = random.nextInt(1_000_000);
      String line = "line " + random.nextInt(50) + (random.nextBoolean() ? " µ" : "");
      String material = src[0] + "\0" + src[1] + "\0" + src[2] + "\0" + offset + "\0" + line;
      assertThat(EventIds.of(src[0], src[1], src[2], offset, line))
          .as("%s", material)
          .isEqualTo(
              EventIds.sha256Hex(material.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                  .substring(0, 32));
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
