package io.specwatch.ingest.generate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Runs every deployment's simulator and hands the ticks to a handler: as fast as possible (replay:
 * one deployment after the other) or at wall-clock pace (realtime: all deployments together in
 * event-time order, each tick released when {@code start + (eventTime - start) / speed} is
 * reached).
 */
public final class FleetGenerator {

  /** Waits; tests pass a fake. */
  public interface Sleeper {
    void sleepNanos(long nanos) throws InterruptedException;
  }

  /** Counts of what was generated. */
  public record Totals(long deployments, long ticks) {}

  private FleetGenerator() {}

  public static Totals replay(Scenario s, TickHandler h) {
    long ticks = 0;
    for (DeploymentSpec d : s.deployments()) {
      DeploymentSimulator sim = new DeploymentSimulator(d, s.seed(), s.start(), s.end());
      h.begin(d);
      for (Tick t = sim.next(); t != null; t = sim.next()) {
        h.tick(d, t);
        ticks++;
      }
      h.end(d);
    }
    h.flush();
    return new Totals(s.deployments().size(), ticks);
  }

  private record Pending(int order, DeploymentSimulator sim, Tick tick) {}

  /**
   * Realtime: the event time of each tick is mapped to wall time {@code wallStart + (eventTime -
   * start) / speed}; the handler is flushed before every wait.
   */
  public static Totals realtime(Scenario s, TickHandler h, double speed, Sleeper sleeper)
      throws InterruptedException {
    if (!(speed > 0)) {
      throw new IllegalArgumentException("--speed must be > 0, was " + speed);
    }
    PriorityQueue<Pending> queue =
        new PriorityQueue<>(
            Comparator.comparing((Pending p) -> p.tick().end()).thenComparing(Pending::order));
    List<DeploymentSimulator> sims = new ArrayList<>();
    for (int i = 0; i < s.deployments().size(); i++) {
      DeploymentSpec d = s.deployments().get(i);
      DeploymentSimulator sim = new DeploymentSimulator(d, s.seed(), s.start(), s.end());
      sims.add(sim);
      h.begin(d);
      Tick first = sim.next();
      if (first != null) {
        queue.add(new Pending(i, sim, first));
      } else {
        h.end(d);
      }
    }
    long wallStart = System.nanoTime();
    long ticks = 0;
    while (!queue.isEmpty()) {
      Pending p = queue.poll();
      long dueNanos = (long) (Duration.between(s.start(), p.tick().end()).toNanos() / speed);
      long wait = wallStart + dueNanos - System.nanoTime();
      if (wait > 1_000_000) {
        h.flush();
        sleeper.sleepNanos(wait);
      }
      DeploymentSpec d = p.sim().spec();
      h.tick(d, p.tick());
      ticks++;
      Tick next = p.sim().next();
      if (next != null) {
        queue.add(new Pending(p.order(), p.sim(), next));
      } else {
        h.end(d);
      }
    }
    h.flush();
    return new Totals(sims.size(), ticks);
  }

  /** The default replay start: a fixed instant, so the default output is deterministic. */
  public static final Instant DEFAULT_START = Instant.parse("2026-11-30T16:00:00Z");
}
