package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {

  @TempDir Path dir;

  private static final FileIdentity ID = new FileIdentity("2049:77", "0123456789abcdef");

  @Test
  void savesAndLoadsOneFilePerSource() throws Exception {
    CheckpointStore store = new CheckpointStore(dir);
    store.save(new Checkpoint("/logs/a.log", ID, 120, 3));
    store.save(new Checkpoint("/logs/b.log", ID, 7, 1));
    store.save(new Checkpoint("/logs/a.log", ID, 240, 6));

    assertThat(store.load("/logs/a.log")).contains(new Checkpoint("/logs/a.log", ID, 240, 6));
    assertThat(new CheckpointStore(dir).load("/logs/b.log"))
        .contains(new Checkpoint("/logs/b.log", ID, 7, 1));
    assertThat(store.load("/logs/c.log")).isEmpty();
    try (Stream<Path> files = Files.list(dir)) {
      // no temp file is left behind
      assertThat(files.map(p -> p.getFileName().toString()))
          .hasSize(2)
          .allMatch(n -> n.endsWith(".json"));
    }
  }

  @Test
  void corruptFileIsMovedAsideAndReadFromStart() throws Exception {
    CheckpointStore store = new CheckpointStore(dir);
    store.save(new Checkpoint("/logs/a.log", ID, 120, 3));
    Path file = store.fileOf("/logs/a.log");
    Files.writeString(file, "{\"version\":1,\"source\":\"/logs/a.log\",\"off"); // torn write

    assertThat(store.load("/logs/a.log")).isEmpty();
    assertThat(file).doesNotExist();
    assertThat(file.resolveSibling(file.getFileName() + ".corrupt")).exists();

    store.save(new Checkpoint("/logs/a.log", ID, 10, 1));
    assertThat(store.load("/logs/a.log")).contains(new Checkpoint("/logs/a.log", ID, 10, 1));
  }

  @Test
  void checkpointOfAnotherSourceOrNegativeOffsetIsRejected() throws Exception {
    CheckpointStore store = new CheckpointStore(dir);
    store.save(new Checkpoint("/logs/b.log", ID, 5, 1));
    Files.copy(store.fileOf("/logs/b.log"), store.fileOf("/logs/a.log"));
    assertThat(store.load("/logs/a.log")).isEmpty();

    Files.writeString(
        store.fileOf("/logs/c.log"),
        "{\"version\":1,\"source\":\"/logs/c.log\",\"fileKey\":\"1:2\",\"fingerprint\":\"f\","
            + "\"offset\":-4,\"lineNumber\":0}");
    assertThat(store.load("/logs/c.log")).isEmpty();
  }

  @Test
  void writeIsAtomicReplaceOfTheWholeFile() throws Exception {
    CheckpointStore store = new CheckpointStore(dir);
    store.save(new Checkpoint("/logs/a.log", ID, 123456789, 1000));
    String first = Files.readString(store.fileOf("/logs/a.log"));
    store.save(new Checkpoint("/logs/a.log", ID, 1, 1));
    String second = Files.readString(store.fileOf("/logs/a.log"));
    assertThat(first).contains("\"offset\":123456789");
    assertThat(second).contains("\"offset\":1,").doesNotContain("\"offset\":123456789");
  }
}
