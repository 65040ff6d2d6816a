package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

class LocalStateRepairTest {
  private static final String APP = "specwatch-test";

  @TempDir Path stateDir;

  static {
    RocksDB.loadLibrary();
  }

  /** A real RocksDB database at {@code dir} with one key, closed. */
  private static void rocksDb(Path dir) throws IOException, RocksDBException {
    Files.createDirectories(dir.getParent());
    try (Options o = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(o, dir.toString())) {
      db.put(new byte[] {1}, new byte[] {2});
    }
  }

  private Path task(String id) throws IOException {
    return Files.createDirectories(stateDir.resolve(APP).resolve(id));
  }

  @Test
  void underExactlyOnceATaskWithoutCheckpointIsRemovedAndACheckpointedOneKept() throws Exception {
    Path crashed = task("0_1");
    rocksDb(crashed.resolve("acceptance-window-store").resolve("acceptance-window-store.60000"));
    Path clean = task("0_2");
    rocksDb(clean.resolve("baseline-store"));
    Files.writeString(clean.resolve(LocalStateRepair.CHECKPOINT), "0\n1\nt 0 5\n");
    Files.writeString(stateDir.resolve(APP).resolve("kafka-streams-process-metadata"), "{}");

    List<String> removed = LocalStateRepair.repair(stateDir, APP, true);

    assertThat(removed).containsExactly("0_1");
    assertThat(crashed).doesNotExist();
    assertThat(clean.resolve("baseline-store")).isDirectory();
    assertThat(stateDir.resolve(APP).resolve("kafka-streams-process-metadata")).exists();
  }

  @Test
  void atLeastOnceKeepsAnUncheckpointedButOpenableTask() throws Exception {
    Path t = task("0_1");
    rocksDb(t.resolve("acceptance-window-store").resolve("acceptance-window-store.60000"));

    assertThat(LocalStateRepair.repair(stateDir, APP, false)).isEmpty();
    assertThat(t.resolve("acceptance-window-store")).isDirectory();
  }

  @Test
  void aSegmentWhoseManifestIsGoneMakesItsTaskBeRemovedUnderAnyGuarantee() throws Exception {
    Path t = task("0_3");
    Files.writeString(t.resolve(LocalStateRepair.CHECKPOINT), "0\n0\n");
    Path good = t.resolve("acceptance-window-store").resolve("acceptance-window-store.0");
    Path bad = t.resolve("acceptance-window-store").resolve("acceptance-window-store.60000");
    rocksDb(good);
    rocksDb(bad);
    // what a kill -9 during a segment drop left behind in ScaleOutIT: CURRENT, no MANIFEST
    try (var s = Files.list(bad)) {
      for (Path p : s.filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).toList()) {
        Files.delete(p);
      }
    }
    try (Options o = new Options()) {
      assertThatThrownBy(() -> RocksDB.open(o, bad.toString()).close())
          .as("the damage is real: RocksDB cannot open it")
          .isInstanceOf(RocksDBException.class);
    }
    assertThat(LocalStateRepair.firstBrokenRocksDb(t)).isEqualTo(bad);
    assertThat(LocalStateRepair.firstBrokenRocksDb(task("0_4"))).isNull();

    assertThat(LocalStateRepair.repair(stateDir, APP, false)).containsExactly("0_3");
    assertThat(t).doesNotExist();
  }

  @Test
  void aRocksDbDirectoryWithoutCurrentIsBroken() throws Exception {
    Path t = task("1_0");
    Path db = t.resolve("baseline-store");
    rocksDb(db);
    Files.delete(db.resolve("CURRENT"));
    assertThat(LocalStateRepair.firstBrokenRocksDb(t)).isEqualTo(db);
  }

  @Test
  void nothingIsTouchedWhileAnotherHolderHasTheStateLock() throws Exception {
    Path t = task("0_1");
    rocksDb(t.resolve("baseline-store"));
    try (FileChannel ch =
            FileChannel.open(
                stateDir.resolve(APP).resolve(LocalStateRepair.LOCK),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = ch.lock()) {
      assertThat(held.isValid()).isTrue();
      assertThatThrownBy(() -> LocalStateRepair.repair(stateDir, APP, true))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("state-dir")
          .hasMessageContaining("locked by another running instance");
    }
    assertThat(t.resolve("baseline-store")).isDirectory();
  }

  @Test
  void aMissingApplicationDirectoryIsNothingToDo() {
    assertThat(LocalStateRepair.repair(stateDir, APP, true)).isEmpty();
  }
}
