package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TailedFileTest {

  @TempDir Path dir;

  private static List<String> texts(List<TailedFile.ReadLine> lines) {
    return lines.stream().map(l -> l.line().text()).toList();
  }

  private static void append(Path f, String s) throws Exception {
    Files.writeString(f, s, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Test
  void partialLastLineWaitsForItsNewline() throws Exception {
    Path f = dir.resolve("a.log");
    append(f, "one\ntw");
    try (TailedFile t = new TailedFile(f)) {
      assertThat(t.open(Optional.empty())).isTrue();
      List<TailedFile.ReadLine> first = t.poll(100);
      assertThat(texts(first)).containsExactly("one");
      assertThat(first.get(0).endOffset()).isEqualTo(4);
      assertThat(t.poll(100)).isEmpty();
      append(f, "o\r\nthree\n");
      List<TailedFile.ReadLine> next = t.poll(100);
      assertThat(texts(next)).containsExactly("two", "three");
      assertThat(next.get(0).line().offset()).isEqualTo(4);
      assertThat(next.get(0).line().lineNumber()).isEqualTo(2);
      assertThat(next.get(1).endOffset()).isEqualTo(Files.size(f));
      assertThat(t.rotationPending()).isEqualTo(TailedFile.Rotation.NONE);
    }
  }

  @Test
  void pollRespectsTheLineBudget() throws Exception {
    Path f = dir.resolve("a.log");
    append(f, "1\n2\n3\n4\n5\n");
    try (TailedFile t = new TailedFile(f)) {
      t.open(Optional.empty());
      assertThat(texts(t.poll(2))).containsExactly("1", "2");
      assertThat(texts(t.poll(0))).isEmpty();
      assertThat(texts(t.poll(10))).containsExactly("3", "4", "5");
    }
  }

  @Test
  void waitsForTheFirstLineBeforeOpening() throws Exception {
    Path f = dir.resolve("a.log");
    try (TailedFile t = new TailedFile(f)) {
      assertThat(t.open(Optional.empty())).isFalse();
      append(f, "hea");
      assertThat(t.openNew()).isFalse();
      append(f, "der\n");
      assertThat(t.openNew()).isTrue();
      assertThat(texts(t.poll(10))).containsExactly("header");
    }
  }

  @Test
  void renameAndCreateFinishesTheOldFileThenSwitches() throws Exception {
    Path f = dir.resolve("a.log");
    append(f, "old-1\nold-2\n");
    try (TailedFile t = new TailedFile(f)) {
      t.open(Optional.empty());
      assertThat(texts(t.poll(10))).containsExactly("old-1", "old-2");
      append(f, "old-3\nold-4-unterminated");
      Files.move(f, dir.resolve("a.log.1"));
      append(f, "new-1\n");

      assertThat(texts(t.poll(10))).containsExactly("old-3", "old-4-unterminated");
      assertThat(t.rotationPending()).isEqualTo(TailedFile.Rotation.RENAMED);
      assertThat(t.poll(10)).isEmpty(); // nothing more until the caller switches

      assertThat(t.switchFile()).isTrue();
      List<TailedFile.ReadLine> fresh = t.poll(10);
      assertThat(texts(fresh)).containsExactly("new-1");
      assertThat(fresh.get(0).line().offset()).isZero();
      assertThat(fresh.get(0).line().lineNumber()).isEqualTo(1);
    }
  }

  @Test
  void copyTruncateIsDetectedAndRestartsAtZero() throws Exception {
    Path f = dir.resolve("a.log");
    append(f, "first line of the old content\nold-2\nold-3\n");
    try (TailedFile t = new TailedFile(f)) {
      t.open(Optional.empty());
      FileIdentity before = t.identity();
      assertThat(t.poll(10)).hasSize(3);
      Files.copy(f, dir.resolve("a.log.1"));
      Files.writeString(f, "", StandardOpenOption.TRUNCATE_EXISTING);
      append(f, "new-1\n");

      assertThat(t.poll(10)).isEmpty();
      assertThat(t.rotationPending()).isEqualTo(TailedFile.Rotation.TRUNCATED);
      assertThat(t.switchFile()).isTrue();
      assertThat(t.identity().fileKey()).isEqualTo(before.fileKey());
      assertThat(t.identity()).isNotEqualTo(before);
      assertThat(texts(t.poll(10))).containsExactly("new-1");
    }
  }

  @Test
  void copyTruncateRefilledPastTheOldOffsetIsDetectedByFingerprint() throws Exception {
    Path f = dir.resolve("a.log");
    append(f, "a\nb\n");
    try (TailedFile t = new TailedFile(f)) {
      t.open(Optional.empty());
      assertThat(t.poll(10)).hasSize(2);
      Files.writeString(f, "", StandardOpenOption.TRUNCATE_EXISTING);
      append(f, "new first line, longer than the old file\n");
      assertThat(t.poll(10)).isEmpty();
      assertThat(t.rotationPending()).isEqualTo(TailedFile.Rotation.TRUNCATED);
    }
  }

  @Test
  void resumesAtTheCheckpointOrFindsTheRenamedFile() throws Exception {
    Path f = dir.resolve("a.log");
    append(f, "l1\nl2\nl3\n");
    FileIdentity id = FileIdentity.of(f).orElseThrow();
    String source = f.toAbsolutePath().normalize().toString();
    try (TailedFile t = new TailedFile(f)) {
      assertThat(t.open(Optional.of(new Checkpoint(source, id, 3, 1)))).isTrue();
      List<TailedFile.ReadLine> rest = t.poll(10);
      assertThat(texts(rest)).containsExactly("l2", "l3");
      assertThat(rest.get(0).line().lineNumber()).isEqualTo(2);
    }
    // rotated while stopped: the checkpointed file is now a.log.1, a new a.log exists
    Files.move(f, dir.resolve("a.log.1"));
    append(f, "n1\n");
    try (TailedFile t = new TailedFile(f)) {
      assertThat(t.open(Optional.of(new Checkpoint(source, id, 6, 2)))).isTrue();
      assertThat(t.identity()).isEqualTo(id);
      assertThat(texts(t.poll(10))).containsExactly("l3");
      assertThat(t.rotationPending()).isEqualTo(TailedFile.Rotation.RENAMED);
      assertThat(t.switchFile()).isTrue();
      assertThat(texts(t.poll(10))).containsExactly("n1");
    }
    // checkpointed file deleted: start the current file from 0
    try (TailedFile t = new TailedFile(f)) {
      Files.delete(dir.resolve("a.log.1"));
      assertThat(t.open(Optional.of(new Checkpoint(source, id, 6, 2)))).isTrue();
      assertThat(texts(t.poll(10))).containsExactly("n1");
    }
  }

  @Test
  void globExpansionFindsMatchingRegularFiles() throws Exception {
    append(dir.resolve("a.log"), "x\n");
    append(dir.resolve("b.log"), "x\n");
    append(dir.resolve("b.log.1"), "x\n");
    Files.createDirectories(dir.resolve("sub"));
    append(dir.resolve("sub/c.log"), "x\n");
    assertThat(Globs.expand(dir + "/*.log"))
        .containsExactly(dir.resolve("a.log"), dir.resolve("b.log"));
    assertThat(Globs.expand(dir + "/**/*.log")).contains(dir.resolve("sub/c.log"));
    assertThat(Globs.expand(dir + "/none/*.log")).isEmpty();
    assertThat(Globs.expand(dir + "/plain.log")).containsExactly(dir.resolve("plain.log"));
  }
}
