package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.AlertFixtures.context;
import static io.specwatch.streams.alert.AlertFixtures.minute;
import static io.specwatch.streams.alert.AlertFixtures.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.streams.TopologyNames;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * REGRESSION on the alert topology with the seeds' episodes (defaults: reference 20 windows, recent
 * 5, 3 windows to raise and clear, 99% confidence over 4 metrics, 5% minimum effect).
 */
class RegressionAlertsTest {
  /** Deterministic window-to-window wobble of verify ms and tau. */
  private static final double[] VERIFY_NOISE = {0.0, 0.3, -0.2, 0.1, -0.3, 0.2, -0.1};

  private static final double[] TAU_NOISE = {0.0, 0.03, -0.02, 0.01, -0.03, 0.02, -0.01};

  @TempDir Path stateDir;
  private AlertFixtures f;

  @AfterEach
  void tearDown() {
    if (f != null) {
      f.close();
    }
  }

  /** Window i with verify ms and the rest of the cycle outside verify. */
  private void sendVerify(int i, double verifyMs, double otherMs) {
    double tau = 2.0 + TAU_NOISE[i % 7];
    f.send(window("kimi", i, 2000, tau, verifyMs + otherMs, verifyMs, null).build());
  }

  @Test
  void verifyJumpFrom19To29MsRaisesAttributedToTheNcclEnvAndClearsWhenItRecovers() {
    f = new AlertFixtures(stateDir, AlertConfig.defaults());
    f.send(context("kimi", "ctx-tuned", minute(-60)).build());
    for (int i = 0; i < 20; i++) {
      sendVerify(i, 19.0 + VERIFY_NOISE[i % 7], 2.3); // ~94 tok/s at tau 2
    }
    // the restart: NCCL tuning no longer reaches the workers
    f.send(context("kimi", "ctx-untuned", minute(20).minusSeconds(20)).setEnv(Map.of()).build());
    for (int i = 20; i < 26; i++) {
      sendVerify(i, 28.95 + VERIFY_NOISE[i % 7] / 10, 4.4); // ~60 tok/s
    }
    assertThat(f.read())
        .as(
            "windows 20-23 mix regimes (not significant after Bonferroni); 24 and 25 breach:"
                + " two of three")
        .isEmpty();
    sendVerify(26, 28.95 + VERIFY_NOISE[26 % 7] / 10, 4.4); // third breach in a row

    List<Alert> raised = f.read();
    assertThat(raised)
        .extracting(Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertType.REGRESSION, AlertState.RAISED, minute(26)));
    Alert a = raised.get(0);
    assertThat(a.getAttributedChange())
        .isEqualTo(
            "env.NCCL_ALGO: Ring -> (unset); env.NCCL_P2P_LEVEL: SYS -> (unset);"
                + " env.NCCL_PROTO: LL -> (unset)");
    assertThat(a.getMetric()).isIn("verifyMsP50", "meanCycleMs", "effectiveTokSPerRequest");
    assertThat(a.getPValue()).isLessThan(0.01 / 4);
    Map<String, String> ev = a.getEvidence();
    assertThat(ev)
        .containsEntry("verifyMsP50.breach", "true")
        .containsEntry("verifyMsP50.referenceN", "20")
        .containsEntry("verifyMsP50.recentN", "5")
        .containsEntry("meanCycleMs.breach", "true")
        .containsEntry("effectiveTokSPerRequest.breach", "true")
        .containsEntry("meanAcceptLength.breach", "false")
        .containsEntry("metricsTested", "4")
        .containsEntry("attribution.fromContextId", "ctx-tuned")
        .containsEntry("attribution.toContextId", "ctx-untuned");
    // reference = windows 0-19: verify mean = 19 + mean of the noise pattern over 20 windows
    double refMean = 0;
    for (int i = 0; i < 20; i++) {
      refMean += 19.0 + VERIFY_NOISE[i % 7];
    }
    refMean /= 20;
    assertThat(Double.parseDouble(ev.get("verifyMsP50.referenceMean")))
        .isCloseTo(refMean, within(1e-4));
    double recentMean = 0;
    for (int i = 22; i <= 26; i++) {
      recentMean += 28.95 + VERIFY_NOISE[i % 7] / 10;
    }
    recentMean /= 5;
    assertThat(Double.parseDouble(ev.get("verifyMsP50.recentMean")))
        .isCloseTo(recentMean, within(1e-4));
    assertThat(Double.parseDouble(ev.get("verifyMsP50.effect")))
        .isCloseTo((recentMean - refMean) / refMean, within(1e-4));
    assertThat(a.getMessage()).contains("after env.NCCL_ALGO: Ring -> (unset)");

    // the new regime persists: no re-raise, and the reference stays the tuned one
    for (int i = 27; i < 50; i++) {
      sendVerify(i, 28.95 + VERIFY_NOISE[i % 7] / 10, 4.4);
    }
    assertThat(f.read()).isEmpty();
    RegressionDetector.State state =
        f.driver
            .<String, RegressionDetector.State>getKeyValueStore(
                TopologyNames.ALERT_REGRESSION_STORE)
            .get("kimi");
    assertThat(state.reference())
        .extracting(RegressionDetector.MetricPoint::windowStart)
        .as("reference not poisoned by the 29 ms windows")
        .allMatch(start -> start < minute(20).toEpochMilli());
    assertThat(state.hysteresis().raised()).isTrue();

    // tuning restored at window 50: recent block all back at window 54, clear after 3 healthy
    for (int i = 50; i < 56; i++) {
      sendVerify(i, 19.0 + VERIFY_NOISE[i % 7], 2.3);
    }
    assertThat(f.read()).isEmpty();
    sendVerify(56, 19.0 + VERIFY_NOISE[56 % 7], 2.3);
    List<Alert> cleared = f.read();
    assertThat(cleared)
        .extracting(Alert::getType, Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertType.REGRESSION, AlertState.CLEARED, minute(56)));
    assertThat(cleared.get(0).getEvidence()).containsEntry("reason", "recovered");
  }

  @Test
  void seedsPhantomRegression89Vs82TokSAcrossACommitChangeDoesNotRaise() {
    f = new AlertFixtures(stateDir, AlertConfig.defaults());
    f.send(context("kimi", "ctx-old", minute(-60)).build());
    for (int i = 0; i < RegressionDetectorTest.NOISY_REFERENCE.length; i++) {
      sendTokS(i, RegressionDetectorTest.NOISY_REFERENCE[i]);
    }
    // git pull: a new engine commit, and the next windows read lower (82 vs an earlier 89)
    f.send(context("kimi", "ctx-new", minute(20)).setEngineCommit("0be30d4").build());
    for (int i = 0; i < RegressionDetectorTest.NOISY_AFTER.length; i++) {
      sendTokS(20 + i, RegressionDetectorTest.NOISY_AFTER[i]);
    }
    assertThat(f.read()).isEmpty();
  }

  private void sendTokS(int i, double tokS) {
    double cycleMs = 2000 / tokS; // tau 2.0
    f.send(window("kimi", i, 2000, 2.0, cycleMs, cycleMs - 2.3, null).build());
  }

  @Test
  void unrecoveredRegressionBecomesTheReferenceAfterTheRebaselineWindows() {
    f = new AlertFixtures(stateDir, AlertFixtures.withRebaseline(AlertConfig.defaults(), 30));
    for (int i = 0; i < 20; i++) {
      sendVerify(i, 19.0 + VERIFY_NOISE[i % 7], 2.3);
    }
    for (int i = 20; i < 27; i++) {
      sendVerify(i, 28.95 + VERIFY_NOISE[i % 7] / 10, 4.4);
    }
    assertThat(f.read()).extracting(Alert::getState).containsExactly(AlertState.RAISED);
    for (int i = 27; i < 56; i++) {
      sendVerify(i, 28.95 + VERIFY_NOISE[i % 7] / 10, 4.4);
    }
    assertThat(f.read()).isEmpty();
    sendVerify(56, 28.95 + VERIFY_NOISE[56 % 7] / 10, 4.4); // 30th window after the raise
    List<Alert> cleared = f.read();
    assertThat(cleared)
        .extracting(Alert::getState, Alert::getWindowStart)
        .containsExactly(tuple(AlertState.CLEARED, minute(56)));
    assertThat(cleared.get(0).getEvidence()).containsEntry("reason", "rebaselined");
    for (int i = 57; i < 80; i++) {
      sendVerify(i, 28.95 + VERIFY_NOISE[i % 7] / 10, 4.4);
    }
    assertThat(f.read()).as("29 ms is now the reference").isEmpty();
  }
}
