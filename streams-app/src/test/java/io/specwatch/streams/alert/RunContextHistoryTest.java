package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.AlertFixtures.context;
import static io.specwatch.streams.alert.AlertFixtures.minute;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.streams.alert.RunContextHistory.Snapshot;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunContextHistoryTest {

  @Test
  void flattensTheFieldsThatMovePerformance() {
    Snapshot s = Snapshot.of(context("kimi", "c1", minute(0)).setDraftModelVersion("v3").build());
    assertThat(s.fields())
        .containsEntry("engineCommit", "bba2fc4")
        .containsEntry("env.NCCL_PROTO", "LL")
        .containsEntry("cudaGraph", "true")
        .containsEntry("numSteps", "2")
        .containsEntry("topk", "1")
        .containsEntry("numDraftTokens", "3")
        .containsEntry("specMethod", "EAGLE3")
        .containsEntry("draftModelVersion", "v3")
        .containsEntry("tp", "8")
        .doesNotContainKey("gpuModel");
    assertThat(s.observedAt()).isEqualTo(minute(0).toEpochMilli());
  }

  @Test
  void diffListsChangedAddedAndRemovedFieldsSorted() {
    assertThat(
            RunContextHistory.diff(
                Map.of("cudaGraph", "true", "env.NCCL_PROTO", "LL", "numSteps", "2"),
                Map.of("cudaGraph", "false", "numSteps", "2", "engineCommit", "0be30d4")))
        .isEqualTo(
            "cudaGraph: true -> false; engineCommit: (unset) -> 0be30d4;"
                + " env.NCCL_PROTO: LL -> (unset)");
  }

  @Test
  void changeInRangeIsDiffedAgainstTheContextInForceBeforeIt() {
    RunContextHistory h =
        RunContextHistory.EMPTY
            .with(Snapshot.of(context("kimi", "c1", minute(0)).build()))
            .with(Snapshot.of(context("kimi", "c2", minute(10)).setCudaGraph(false).build()))
            .with(
                Snapshot.of(
                    context("kimi", "c3", minute(12))
                        .setCudaGraph(false)
                        .setEngineCommit("0be30d4")
                        .build()));
    RunContextHistory.Change c =
        h.changeIn(minute(5).toEpochMilli(), minute(20).toEpochMilli()).orElseThrow();
    assertThat(c.from().contextId()).isEqualTo("c1");
    assertThat(c.to().contextId()).isEqualTo("c3");
    assertThat(c.diff()).isEqualTo("cudaGraph: true -> false; engineCommit: bba2fc4 -> 0be30d4");
    assertThat(h.changeIn(minute(12).toEpochMilli(), minute(20).toEpochMilli())).isEmpty();
    assertThat(h.changeIn(minute(-5).toEpochMilli(), minute(20).toEpochMilli()))
        .as("no context in force before the range: a first context is not a change")
        .isEmpty();
  }

  @Test
  void keepsTheNewestContextsOnlyAndIgnoresARepeat() {
    RunContextHistory h = RunContextHistory.EMPTY;
    for (int i = 0; i < 12; i++) {
      h = h.with(Snapshot.of(context("kimi", "c" + i, minute(i)).build()));
    }
    assertThat(h.snapshots()).hasSize(RunContextHistory.CAPACITY);
    assertThat(h.snapshots().get(0).contextId()).isEqualTo("c4");
    assertThat(h.with(Snapshot.of(context("kimi", "c11", minute(30)).build()))).isSameAs(h);
  }

  @Test
  void roundTripsThroughTheStateSerde() {
    RunContextHistory h =
        RunContextHistory.EMPTY.with(Snapshot.of(context("kimi", "c1", minute(0)).build()));
    JsonStateSerde<RunContextHistory> serde = new JsonStateSerde<>(RunContextHistory.class);
    byte[] bytes = serde.serializer().serialize("t", h);
    assertThat(serde.deserializer().deserialize("t", bytes)).isEqualTo(h);
  }
}
