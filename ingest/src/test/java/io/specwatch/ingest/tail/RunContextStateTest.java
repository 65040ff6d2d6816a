package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.RunContextTracker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunContextStateTest {

  @TempDir Path dir;

  @Test
  void logLayersSurviveARestartWithTheSameContextId() {
    RunContextTracker before = new RunContextTracker("d");
    ContextFields.Builder b = ContextFields.builder();
    b.model = "kimi";
    b.specMethod = "EAGLE3";
    b.tp = 8;
    b.env = Map.of("NCCL_PROTO", "LL");
    b.extra.put("decode_log_interval", "40");
    String id = before.reveal(b.build(), Instant.EPOCH).get(0).getContextId();
    RunContextState.save(dir, before.logLayers());

    RunContextTracker after = new RunContextTracker("d");
    after.restoreLogLayers(RunContextState.load(dir));
    var restarted = after.pending(Instant.parse("2026-11-30T18:00:00Z"));
    assertThat(restarted).hasSize(1);
    assertThat(restarted.get(0).getContextId()).isEqualTo(id);
    assertThat(after.stamp("d", Instant.EPOCH).contextId()).isEqualTo(id);
  }

  @Test
  void aCorruptFileIsMovedAsideAndIgnored() throws Exception {
    Files.writeString(dir.resolve(RunContextState.FILE), "{\"d\": [1,");
    assertThat(RunContextState.load(dir)).isEmpty();
    assertThat(dir.resolve(RunContextState.FILE + ".corrupt")).exists();
    assertThat(RunContextState.load(dir.resolve("absent"))).isEmpty();
  }
}
