package io.specwatch.ingest.cli;

import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.scrape.ScrapeConfig;
import io.specwatch.ingest.scrape.ScrapeEngine;
import io.specwatch.ingest.scrape.Scraper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.runtime.KafkaOptions;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code scrape}: poll vLLM/SGLang /metrics endpoints into INTERVAL DecodeEvents. */
@Command(
    name = "scrape",
    mixinStandardHelpOptions = true,
    description =
        "Scrape Prometheus /metrics of vLLM or SGLang every interval and publish the deltas as"
            + " INTERVAL DecodeEvents, until SIGTERM. Exit codes: 0 stopped, 2 bad setting or"
            + " delivery failure.")
final class ScrapeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--url",
      description = "Metrics URL (repeatable; env SPECWATCH_SCRAPE_URLS, comma separated).")
  List<String> urls = new ArrayList<>();

  @Option(
      names = "--interval",
      defaultValue = "${env:SPECWATCH_SCRAPE_INTERVAL:-10s}",
      description =
          "Scrape spacing, e.g. 10s, 500ms (env SPECWATCH_SCRAPE_INTERVAL, default ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--engine",
      defaultValue = "${env:SPECWATCH_SCRAPE_ENGINE:-auto}",
      description =
          "vllm, sglang or auto (by metric names; env SPECWATCH_SCRAPE_ENGINE, default"
              + " ${DEFAULT-VALUE}).")
  String engine;

  @Mixin KafkaOptions kafka;

  @Mixin ShipTargetOptions target;

  @Mixin RunContextOptions context;

  @Mixin HealthOptions health;

  @Mixin ShutdownOptions shutdown;

  @Option(
      names = "--max-scrapes",
      defaultValue = "${env:SPECWATCH_MAX_SCRAPES:-0}",
      description =
          "Stop after N scrape rounds (0 = run until SIGTERM; env SPECWATCH_MAX_SCRAPES).")
  long maxScrapes;

  @Option(
      names = "--exit-when-idle",
      defaultValue = "${env:SPECWATCH_EXIT_WHEN_IDLE:-false}",
      description =
          "Stop after a round (past the first) in which no spec counter advanced (env"
              + " SPECWATCH_EXIT_WHEN_IDLE).")
  boolean exitWhenIdle;

  /** Parses the options into the validated config; shared by call() and tests. */
  ScrapeConfig toConfig(Map<String, String> env) {
    List<String> raw = new ArrayList<>(urls);
    if (raw.isEmpty()) {
      String fromEnv = env.getOrDefault("SPECWATCH_SCRAPE_URLS", "");
      for (String u : fromEnv.split(",")) {
        if (!u.isBlank()) {
          raw.add(u.strip());
        }
      }
    }
    List<URI> parsed = new ArrayList<>();
    for (String u : raw) {
      try {
        parsed.add(URI.create(u));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("setting 'url': bad URL '" + u + "'", e);
      }
    }
    ShipConfig ship = target.toShipConfig(kafka, NormaliseConfig.defaults(), context);
    return new ScrapeConfig(
        parsed,
        ScrapeConfig.parseInterval(interval),
        ScrapeEngine.parse(engine),
        ship,
        maxScrapes,
        exitWhenIdle,
        shutdown.timeout);
  }

  @Override
  public Integer call() {
    ScrapeConfig config = toConfig(System.getenv());
    try (AppRuntime runtime = AppRuntime.start("ingest-scrape", health)) {
      runtime.readiness().ready();
      return run(
          new Scraper(config, Clock.systemUTC(), runtime.registry()), config.shutdownTimeout());
    }
  }

  private int run(Scraper scraper, Duration shutdownTimeout) {
    Thread hook =
        new Thread(
            () -> {
              scraper.stop();
              try {
                scraper.awaitFinished(shutdownTimeout);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "scrape-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    Scraper.Result r = scraper.run();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // SIGTERM path: the hook is already running
    }
    spec.commandLine()
        .getOut()
        .printf(
            "scraped: rounds=%d events=%d failed-scrapes=%d%n",
            r.rounds(), r.events(), r.failedScrapes());
    return 0;
  }
}
