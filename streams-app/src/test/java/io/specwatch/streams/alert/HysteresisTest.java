package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.Hysteresis.Observation.BREACH;
import static io.specwatch.streams.alert.Hysteresis.Observation.HEALTHY;
import static io.specwatch.streams.alert.Hysteresis.Observation.INCONCLUSIVE;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.streams.alert.Hysteresis.Observation;
import io.specwatch.streams.alert.Hysteresis.Transition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HysteresisTest {

  private static List<Transition> run(int raise, int clear, Observation... obs) {
    List<Transition> out = new ArrayList<>();
    Hysteresis.State s = Hysteresis.State.INITIAL;
    for (int i = 0; i < obs.length; i++) {
      Hysteresis.Step step = Hysteresis.step(s, obs[i], i * 60_000L, raise, clear);
      out.add(step.transition());
      s = step.state();
    }
    return out;
  }

  @Test
  void raisesOnTheNthConsecutiveBreachAndClearsOnTheMthHealthy() {
    assertThat(
            run(
                3,
                2,
                BREACH,
                BREACH,
                HEALTHY,
                BREACH,
                BREACH,
                INCONCLUSIVE,
                BREACH,
                BREACH,
                HEALTHY,
                BREACH,
                HEALTHY,
                HEALTHY,
                HEALTHY))
        .containsExactly(
            Transition.NONE, // b1
            Transition.NONE, // b2
            Transition.NONE, // healthy resets
            Transition.NONE, // b1
            Transition.NONE, // b2
            Transition.NONE, // inconclusive: streak kept
            Transition.RAISE, // b3
            Transition.NONE, // already raised
            Transition.NONE, // h1
            Transition.NONE, // breach resets the healthy streak
            Transition.NONE, // h1
            Transition.CLEAR, // h2
            Transition.NONE);
  }

  @Test
  void streakStartIsTheFirstWindowOfTheStreak() {
    Hysteresis.State s = Hysteresis.State.INITIAL;
    s = Hysteresis.step(s, HEALTHY, 0, 2, 2).state();
    s = Hysteresis.step(s, BREACH, 60_000, 2, 2).state();
    Hysteresis.Step raise = Hysteresis.step(s, BREACH, 120_000, 2, 2);
    assertThat(raise.transition()).isEqualTo(Transition.RAISE);
    assertThat(raise.state()).isEqualTo(new Hysteresis.State(true, 2, 0, 60_000));
  }

  @Test
  void oneWindowSettingsRaiseAndClearImmediately() {
    assertThat(run(1, 1, BREACH, HEALTHY, INCONCLUSIVE, BREACH))
        .containsExactly(Transition.RAISE, Transition.CLEAR, Transition.NONE, Transition.RAISE);
  }
}
