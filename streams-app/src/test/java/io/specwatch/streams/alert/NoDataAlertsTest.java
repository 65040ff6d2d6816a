package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.AlertFixtures.minute;
import static io.specwatch.streams.alert.AlertFixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NO_DATA: stream-time and wall-clock silence, clear when data returns. Silence 5 min. */
class NoDataAlertsTest {
  @TempDir Path stateDir;
  private AlertFixtures f;

  @AfterEach
  void tearDown() {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void silentDeploymentRaisesOnStreamTimeOfOthersAndClearsWhenItReturns() {
    f = new AlertFixtures(stateDir, AlertConfig.defaults());
    for (int i = 0; i <= 2; i++) {
      f.send(window("a", i, 500, 2.0, 30.0, 26.0, null).build());
      f.send(window("b", i, 500, 2.0, 30.0, 26.0, null).build());
    }
    // b's last window ends at minute 3; a continues
    for (int i = 3; i <= 6; i++) {
      f.send(window("a", i, 500, 2.0, 30.0, 26.0, null).build());
    }
    assertThat(f.read()).as("a's newest window ends at minute 7: b silent 4 min < 5").isEmpty();
    // b's last window was processed 30 s ago in wall-clock time: silent, not merely behind
    f.driver.advanceWallClockTime(Duration.ofSeconds(30));
    f.send(window("a", 7, 500, 2.0, 30.0, 26.0, null).build()); // ends at minute 8: 5 min
    List<Alert> raised = f.read();
    assertThat(raised)
        .extracting(Alert::getDeploymentId, Alert::getType, Alert::getState)
        .containsExactly(tuple("b", AlertType.NO_DATA, AlertState.RAISED));
    Alert r = raised.get(0);
    assertThat(r.getWindowStart()).as("first missing window").isEqualTo(minute(3));
    assertThat(r.getEmittedAt()).isEqualTo(minute(8));
    assertThat(r.getEvidence())
        .containsEntry("trigger", "stream-time")
        .containsEntry("lastWindowEnd", minute(3).toString())
        .containsEntry("streamTime", minute(8).toString());
    assertThat(r.getAlertId())
        .isEqualTo(
            Alerts.alertId("b", AlertType.NO_DATA, AlertState.RAISED, minute(3).toEpochMilli()));

    f.send(window("a", 8, 500, 2.0, 30.0, 26.0, null).build());
    assertThat(f.read()).as("raised once, not on every window").isEmpty();

    f.send(window("b", 9, 500, 2.0, 30.0, 26.0, null).build());
    List<Alert> cleared = f.read();
    assertThat(cleared)
        .extracting(Alert::getDeploymentId, Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple("b", AlertType.NO_DATA, AlertState.CLEARED, minute(9)));
    assertThat(cleared.get(0).getEvidence()).containsEntry("gapMs", Long.toString(6 * 60_000));
  }

  @Test
  void aWindowOfOnlyLateEventsNeitherClearsNorPreventsNoData() {
    f = new AlertFixtures(stateDir, AlertConfig.defaults());
    for (int i = 0; i <= 2; i++) {
      f.send(window("a", i, 500, 2.0, 30.0, 26.0, null).build());
      f.send(window("b", i, 500, 2.0, 30.0, 26.0, null).build());
    }
    f.driver.advanceWallClockTime(Duration.ofSeconds(30));
    for (int i = 3; i <= 5; i++) {
      f.send(window("a", i, 500, 2.0, 30.0, 26.0, null).build());
    }
    // b's engine is dead; replayed old lines make windows that hold only late events
    f.send(window("b", 6, 0, 2.0, 30.0, 26.0, null).setEvents(0).setLateEvents(40).build());
    f.send(window("a", 6, 500, 2.0, 30.0, 26.0, null).build());
    f.send(window("a", 7, 500, 2.0, 30.0, 26.0, null).build()); // ends at minute 8: 5 min
    assertThat(f.read())
        .extracting(Alert::getDeploymentId, Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple("b", AlertType.NO_DATA, AlertState.RAISED, minute(3)));
    f.send(window("b", 9, 0, 2.0, 30.0, 26.0, null).setEvents(0).setLateEvents(40).build());
    assertThat(f.read()).as("late events only: not cleared").isEmpty();
    f.send(window("b", 10, 500, 2.0, 30.0, 26.0, null).build());
    assertThat(f.read())
        .extracting(Alert::getDeploymentId, Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple("b", AlertType.NO_DATA, AlertState.CLEARED, minute(10)));
  }

  @Test
  void wholeFleetSilentRaisesOnWallClockWithTheSameIdAsTheStreamTimeCheck() {
    f = new AlertFixtures(stateDir, AlertConfig.defaults());
    f.send(window("a", 0, 500, 2.0, 30.0, 26.0, null).build());
    f.send(window("a", 1, 500, 2.0, 30.0, 26.0, null).build());
    f.driver.advanceWallClockTime(Duration.ofMinutes(4).plusSeconds(50));
    assertThat(f.read()).isEmpty();
    f.driver.advanceWallClockTime(Duration.ofSeconds(30)); // 5 min 20 s since a's last window
    List<Alert> raised = f.read();
    assertThat(raised)
        .extracting(Alert::getDeploymentId, Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple("a", AlertType.NO_DATA, AlertState.RAISED, minute(2)));
    assertThat(raised.get(0).getEvidence()).containsEntry("trigger", "wall-clock");
    assertThat(raised.get(0).getEmittedAt()).isEqualTo(minute(7));
    assertThat(raised.get(0).getAlertId())
        .isEqualTo(
            Alerts.alertId("a", AlertType.NO_DATA, AlertState.RAISED, minute(2).toEpochMilli()));
    f.driver.advanceWallClockTime(Duration.ofMinutes(10));
    assertThat(f.read()).isEmpty();

    f.send(window("a", 30, 500, 2.0, 30.0, 26.0, null).build());
    assertThat(f.read())
        .extracting(Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertType.NO_DATA, AlertState.CLEARED, minute(30)));
  }

  @Test
  void aDeploymentOnALaggingPartitionIsBehindNotSilent() {
    f = new AlertFixtures(stateDir, AlertConfig.defaults());
    // replay: a's partition runs 15 minutes of event time ahead of b's, both keep arriving
    for (int i = 0; i < 10; i++) {
      f.send(window("a", i + 15, 500, 2.0, 30.0, 26.0, null).build());
      f.send(window("b", i, 500, 2.0, 30.0, 26.0, null).build());
      f.driver.advanceWallClockTime(Duration.ofSeconds(1));
    }
    assertThat(f.read()).isEmpty();
    // b's partition stalls: after the check interval of wall-clock time, a's next window raises
    f.driver.advanceWallClockTime(Duration.ofSeconds(30));
    f.send(window("a", 25, 500, 2.0, 30.0, 26.0, null).build());
    assertThat(f.read())
        .extracting(Alert::getDeploymentId, Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple("b", AlertType.NO_DATA, AlertState.RAISED, minute(10)));
  }
}
