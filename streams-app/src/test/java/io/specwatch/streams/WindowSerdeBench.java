package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import java.util.Random;

/**
 * Per-event state cost of the window store: one read and one write of the window value, as the
 * aggregation does for every event. Prints the breakdown window (DeploymentWindow with its rows)
 * against the single accumulator of the previous release, measured in the same run, as a ratio.
 *
 * <p>Run: {@code java -cp <test classpath> io.specwatch.streams.WindowSerdeBench [events]}.
 */
public final class WindowSerdeBench {
  private WindowSerdeBench() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    WindowAccumulatorSerde single = new WindowAccumulatorSerde();
    DeploymentWindowSerde rows = new DeploymentWindowSerde();
    for (int round = 0; round < 3; round++) {
      Random random = new Random(1);
      byte[] a = single.serializer().serialize("t", WindowAccumulator.empty());
      byte[] w = rows.serializer().serialize("t", DeploymentWindow.empty());
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        WindowAccumulator acc = single.deserializer().deserialize("t", a);
        acc.add(event(random, i));
        a = single.serializer().serialize("t", acc);
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        DeploymentWindow dw = rows.deserializer().deserialize("t", w);
        dw.add(new WindowInput(event(random, i), false));
        w = rows.serializer().serialize("t", dw);
      }
      long t2 = System.nanoTime();
      double singleUs = (t1 - t0) / 1e3 / n;
      double rowsUs = (t2 - t1) / 1e3 / n;
      System.out.printf(
          "round %d: %d events in one window; single accumulator %.1f us/event (%d B);"
              + " breakdown window, %d rows, %.1f us/event (%d B); ratio %.2fx%n",
          round,
          n,
          singleUs,
          a.length,
          rows.deserializer().deserialize("t", w).rows().size(),
          rowsUs,
          w.length,
          rowsUs / singleUs);
    }
  }

  private static DecodeEvent event(Random r, int i) {
    String[] categories = {"chat", "code", "completion", "math"};
    int[] running = {1, 3, 6, 12, 24, 48};
    return TestEvents.event("d", i % 60)
        .setCycles(40L)
        .setAcceptLength(1.5 + r.nextDouble() * 2)
        .setCycleMs(20 + r.nextDouble() * 20)
        .setDraftMs(3 + r.nextDouble())
        .setVerifyMs(15 + r.nextDouble() * 15)
        .setPromptCategory(categories[i % categories.length])
        .setRunningRequests(running[i % running.length])
        .build();
  }
}
