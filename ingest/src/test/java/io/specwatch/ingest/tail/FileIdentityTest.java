package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.normalise.FileFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileIdentityTest {

  @TempDir Path dir;

  @Test
  void existsOnlyOnceTheFirstLineIsComplete() throws Exception {
    Path f = dir.resolve("a.log");
    assertThat(FileIdentity.of(f)).isEmpty();
    Files.writeString(f, "");
    assertThat(FileIdentity.of(f)).isEmpty();
    Files.writeString(f, "first li");
    assertThat(FileIdentity.of(f)).isEmpty();
    Files.writeString(f, "ne\nsecond", StandardOpenOption.APPEND);
    FileIdentity id = FileIdentity.of(f).orElseThrow();
    // same fingerprint as the whole-file shipper, so tail and ship give the same event ids
    assertThat(id.fingerprint()).isEqualTo(FileFingerprint.of(f));
    Files.writeString(f, " more\nthird\n", StandardOpenOption.APPEND);
    assertThat(FileIdentity.of(f)).contains(id);
  }

  @Test
  void survivesRenameButNotReplacement() throws Exception {
    Path f = dir.resolve("a.log");
    Files.writeString(f, "header\n");
    FileIdentity id = FileIdentity.of(f).orElseThrow();
    assertThat(id.fileKey()).matches("\\d+:\\d+");
    Path moved = dir.resolve("a.log.1");
    Files.move(f, moved);
    assertThat(FileIdentity.of(moved)).contains(id);

    Files.writeString(f, "header\n"); // same content, new inode
    FileIdentity other = FileIdentity.of(f).orElseThrow();
    assertThat(other.fingerprint()).isEqualTo(id.fingerprint());
    assertThat(other).isNotEqualTo(id);
  }

  @Test
  void sameInodeWithNewContentIsAnotherFile() throws Exception {
    Path f = dir.resolve("a.log");
    Files.writeString(f, "old first line\n");
    FileIdentity id = FileIdentity.of(f).orElseThrow();
    Files.writeString(f, "new first line\n", StandardOpenOption.TRUNCATE_EXISTING);
    FileIdentity now = FileIdentity.of(f).orElseThrow();
    assertThat(now.fileKey()).isEqualTo(id.fileKey());
    assertThat(now).isNotEqualTo(id);
  }

  @Test
  void longFirstLineUsesTheFullHead() throws Exception {
    Path f = dir.resolve("a.log");
    Files.writeString(f, "x".repeat(FileIdentity.HEAD_BYTES));
    assertThat(FileIdentity.of(f)).isPresent();
  }
}
