package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streams benchmark's input with run contexts ({@link StreamsBench#context}, {@link
 * SyntheticDecodeEvents#plain}) takes every path of the baseline stage it is meant to: plain
 * deployments teach, speculative rows meet a baseline learned from their own group's plain
 * deployment from the previous window, and a first window has none. Without this the bench could
 * measure a topology whose baseline join never finds anything.
 */
class StreamsBenchInputTest {
  private static final int DEPLOYMENTS = 80;
  private static final int PLAIN_EVERY = 10;

  @Test
  void speculativeRowsMeetBaselinesLearnedFromTheirGroupsPlainDeployment(@TempDir Path dir) {
    try (TopologyHarness h =
        new TopologyHarness(dir, StaticBaselines.none(), Duration.ofHours(1))) {
      String[] names = new String[DEPLOYMENTS];
      for (int d = 0; d < DEPLOYMENTS; d++) {
        names[d] = SyntheticDecodeEvents.deployment(d);
        h.context(StreamsBench.context(d, names[d], PLAIN_EVERY, T0.minusSeconds(3600)));
      }
      SyntheticDecodeEvents gen = new SyntheticDecodeEvents(4242);
      // as StreamsBench.produce in stream mode: one line per deployment every 1.2 s, 150 s
      for (int round = 0; round < 125; round++) {
        for (int d = 0; d < DEPLOYMENTS; d++) {
          Instant at = T0.plusMillis(round * 1200L + d * (1200L / DEPLOYMENTS));
          h.send(
              StreamsBench.plain(d, PLAIN_EVERY)
                  ? gen.plain(names[d], at)
                  : gen.next(names[d], at));
        }
      }
      // moves stream time past [60 s, 120 s) + grace on every partition's task
      for (int d = 0; d < DEPLOYMENTS; d++) {
        DecodeEvent late = gen.next(names[d], T0.plusSeconds(200));
        h.send(late);
      }

      List<WindowResult> rows = List.copyOf(h.rows().values());
      Map<Long, List<WindowResult>> totalsByWindow =
          rows.stream()
              .filter(r -> r.getSpecEnabled() && "*".equals(r.getPromptCategory()))
              .filter(r -> "*".equals(r.getBatchBucket()))
              .collect(
                  Collectors.groupingBy(
                      r -> r.getWindowStart().getEpochSecond() - T0.getEpochSecond()));
      assertThat(totalsByWindow.keySet()).containsExactlyInAnyOrder(0L, 60L);
      assertThat(totalsByWindow.get(0L))
          .hasSize(DEPLOYMENTS - DEPLOYMENTS / PLAIN_EVERY)
          .allSatisfy(r -> assertThat(r.getBaselineSource()).isEqualTo(BaselineJoin.NO_BASELINE));
      assertThat(totalsByWindow.get(60L))
          .hasSize(DEPLOYMENTS - DEPLOYMENTS / PLAIN_EVERY)
          .allSatisfy(
              r -> {
                int d = Integer.parseInt(r.getDeploymentId().substring("kimi-eagle3-".length()));
                String teacher = SyntheticDecodeEvents.deployment(d / PLAIN_EVERY * PLAIN_EVERY);
                assertThat(r.getBaselineSource()).isEqualTo("learned:" + teacher + "@" + T0);
                assertThat(r.getSpeedup()).isNotNull().isPositive();
                assertThat(r.getBreakEvenAcceptLength()).isNotNull().isGreaterThan(1.0);
              });
      assertThat(rows)
          .filteredOn(r -> !r.getSpecEnabled())
          .isNotEmpty()
          .allSatisfy(
              r -> {
                assertThat(r.getBaselineSource()).isEqualTo(BaselineJoin.NON_SPECULATIVE);
                int d = Integer.parseInt(r.getDeploymentId().substring("kimi-eagle3-".length()));
                assertThat(d % PLAIN_EVERY).isZero();
              });
    }
  }
}
