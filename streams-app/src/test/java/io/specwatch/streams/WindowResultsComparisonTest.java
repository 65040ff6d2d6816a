package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.WindowResultsComparison.Keyed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowResultsComparisonTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static Keyed result(String deployment, int minute, long events, double tau) {
    WindowResult r =
        WindowResult.newBuilder()
            .setDeploymentId(deployment)
            .setWindowStart(T0.plusSeconds(60L * minute))
            .setWindowEnd(T0.plusSeconds(60L * minute + 60))
            .setEvents(events)
            .setCycles(events * 40)
            .setMeanAcceptLength(tau)
            .build();
    return new Keyed(deployment, r);
  }

  private static List<Keyed> reference() {
    return List.of(result("a", 0, 4, 2.0), result("a", 1, 3, 2.1), result("b", 0, 5, 1.9));
  }

  @Test
  void sameRecordsInAnotherOrderMatch() {
    List<Keyed> shuffled = new ArrayList<>(reference());
    java.util.Collections.reverse(shuffled);
    assertThat(WindowResultsComparison.differences(reference(), shuffled)).isEmpty();
  }

  @Test
  void duplicateWindowIsReported() {
    List<Keyed> actual = new ArrayList<>(reference());
    actual.add(result("a", 1, 3, 2.1));
    assertThat(WindowResultsComparison.differences(reference(), actual))
        .containsExactly(
            "actual: window a|*|*|"
                + T0.plusSeconds(60)
                + "|"
                + T0.plusSeconds(120)
                + " emitted 2 times");
  }

  @Test
  void missingExtraAndChangedWindowsAreReported() {
    List<Keyed> actual =
        List.of(result("a", 0, 5, 2.0), result("b", 0, 5, 1.9), result("c", 0, 1, 1.0));
    List<String> diffs = WindowResultsComparison.differences(reference(), actual);
    assertThat(diffs).hasSize(3);
    assertThat(diffs.get(0)).startsWith("window a|*|*|" + T0).contains("events 4 vs 5");
    assertThat(diffs.get(0)).contains("cycles 160 vs 200").doesNotContain("meanAcceptLength");
    assertThat(diffs.get(1)).startsWith("missing window a|*|*|" + T0.plusSeconds(60));
    assertThat(diffs.get(2)).startsWith("extra window c|");
  }

  @Test
  void recordKeyOtherThanTheDeploymentIsReported() {
    List<Keyed> actual = new ArrayList<>(reference());
    actual.set(0, new Keyed("b", actual.get(0).value()));
    assertThat(WindowResultsComparison.differences(reference(), actual))
        .singleElement()
        .asString()
        .startsWith("actual: record key b is not the deployment of");
  }
}
