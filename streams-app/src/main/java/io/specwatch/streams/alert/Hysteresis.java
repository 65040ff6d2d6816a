package io.specwatch.streams.alert;

/**
 * The raise/clear state machine of one alert type for one deployment: raise after {@code
 * raiseAfter} consecutive breaching windows, clear after {@code clearAfter} consecutive healthy
 * ones. Inconclusive windows (too few cycles, metric missing) change nothing: they neither extend
 * nor break a streak. A pure function of the state, kept in a state store between windows.
 */
public final class Hysteresis {

  /** What one window says about the condition. */
  public enum Observation {
    BREACH,
    HEALTHY,
    INCONCLUSIVE
  }

  /** The state change caused by one window. */
  public enum Transition {
    NONE,
    RAISE,
    CLEAR
  }

  /**
   * State between windows.
   *
   * @param raised whether the alert is raised
   * @param breachStreak consecutive breaching windows so far
   * @param healthyStreak consecutive healthy windows so far
   * @param streakStart window start of the first window of the current streak (0 when none)
   */
  public record State(boolean raised, int breachStreak, int healthyStreak, long streakStart) {
    /** Not raised, no streak. */
    public static final State INITIAL = new State(false, 0, 0, 0L);
  }

  /**
   * The outcome of one window.
   *
   * @param state the state after the window
   * @param transition the change it caused
   */
  public record Step(State state, Transition transition) {}

  private Hysteresis() {}

  /** Applies one window's observation. */
  public static Step step(
      State s, Observation observation, long windowStart, int raiseAfter, int clearAfter) {
    switch (observation) {
      case BREACH -> {
        int streak = s.breachStreak() + 1;
        long start = s.breachStreak() == 0 ? windowStart : s.streakStart();
        if (!s.raised() && streak >= raiseAfter) {
          return new Step(new State(true, streak, 0, start), Transition.RAISE);
        }
        return new Step(new State(s.raised(), streak, 0, start), Transition.NONE);
      }
      case HEALTHY -> {
        int streak = s.healthyStreak() + 1;
        long start = s.healthyStreak() == 0 ? windowStart : s.streakStart();
        if (s.raised() && streak >= clearAfter) {
          return new Step(new State(false, 0, streak, start), Transition.CLEAR);
        }
        return new Step(new State(s.raised(), 0, streak, start), Transition.NONE);
      }
      default -> {
        return new Step(s, Transition.NONE);
      }
    }
  }
}
