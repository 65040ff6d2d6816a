package io.specwatch.ingest.generate;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs {@code generate}: builds the scenario, writes files and/or publishes, writes the manifest.
 */
public final class Generate {

  /**
   * What was produced.
   *
   * @param scenario the scenario
   * @param totals deployments and ticks simulated
   * @param lineCounts lines per deployment and file (files mode), else empty
   * @param sent records published (publish mode), or null
   */
  public record Result(
      Scenario scenario,
      FleetGenerator.Totals totals,
      Map<String, Map<String, Long>> lineCounts,
      KafkaOutput.Sent sent) {}

  private Generate() {}

  public static Result run(GenerateConfig c, FleetGenerator.Sleeper sleeper, PrintWriter log)
      throws IOException, InterruptedException {
    Scenario s = c.buildScenario();
    if (c.realtime() && c.out() != null) {
      checkFileLimit(s);
    }
    String mode = c.realtime() ? "realtime x" + c.speed() : "replay";
    FileOutput files = c.out() == null ? null : new FileOutput(c.out());
    if (c.out() != null) {
      Manifest.write(c.out(), Manifest.tree(s, null, mode));
    }
    KafkaOutput kafka = c.kafka() == null ? null : new KafkaOutput(s, c.kafka());
    List<TickHandler> handlers = new ArrayList<>();
    if (files != null) {
      handlers.add(files);
    }
    if (kafka != null) {
      handlers.add(kafka);
    }
    TickHandler all = new Both(handlers);
    log.printf(
        "generate: scenario=%s deployments=%d seed=%d %s .. %s (%s)%n",
        s.name(), s.deployments().size(), s.seed(), s.start(), s.end(), mode);
    log.flush();
    FleetGenerator.Totals totals;
    try {
      totals =
          c.realtime()
              ? FleetGenerator.realtime(s, all, c.speed(), sleeper)
              : FleetGenerator.replay(s, all);
    } finally {
      if (kafka != null) {
        kafka.close();
      }
    }
    Map<String, Map<String, Long>> counts = files == null ? Map.of() : files.counts();
    if (c.out() != null) {
      Manifest.write(c.out(), Manifest.tree(s, counts, mode));
    }
    return new Result(s, totals, counts, kafka == null ? null : kafka.sent());
  }

  /**
   * Realtime keeps every deployment's files open at once: fail fast when the process may not open
   * that many (replay opens one deployment's files at a time).
   */
  static void checkFileLimit(Scenario s) {
    long needed = 0;
    for (DeploymentSpec d : s.deployments()) {
      needed += 1;
      if (d.method().speculative()) {
        needed += (d.phaseProfile() ? 1 : 0) + (d.requestFormat() != RequestFormat.NONE ? 1 : 0);
      }
    }
    if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
      long available = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount() - 256;
      if (needed > available) {
        throw new IllegalArgumentException(
            "--realtime with --out keeps "
                + needed
                + " files open but only about "
                + Math.max(0, available)
                + " file descriptors are free: raise 'ulimit -n', use fewer --deployments,"
                + " or --publish");
      }
    }
  }

  /** Fans ticks out to several handlers. */
  private record Both(List<TickHandler> handlers) implements TickHandler {
    @Override
    public void begin(DeploymentSpec d) {
      handlers.forEach(h -> h.begin(d));
    }

    @Override
    public void tick(DeploymentSpec d, Tick t) {
      for (TickHandler h : handlers) {
        h.tick(d, t);
      }
    }

    @Override
    public void end(DeploymentSpec d) {
      handlers.forEach(h -> h.end(d));
    }

    @Override
    public void flush() {
      handlers.forEach(TickHandler::flush);
    }
  }
}
