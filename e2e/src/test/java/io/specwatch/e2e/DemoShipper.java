package io.specwatch.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Ships one demo deployment's generated files in process, as one {@code ingest tail} per deployment
 * does: one {@link LogFileShipper} for all of its files (engine log first), so they share one run
 * context, with the hardware of the manifest ({@link DemoManifest#hardware}) as the host's
 * configured context.
 */
final class DemoShipper {

  private final Path out;
  private final int logYear;
  private final String bootstrap;
  private final String registryUrl;
  private final String events;
  private final String dlq;
  private final String requests;
  private final String contexts;

  /**
   * A shipper of the files under {@code out} (one directory per deployment id) to the given topics.
   */
  DemoShipper(
      Path out,
      int logYear,
      String bootstrap,
      String registryUrl,
      String events,
      String dlq,
      String requests,
      String contexts) {
    this.out = out;
    this.logYear = logYear;
    this.bootstrap = bootstrap;
    this.registryUrl = registryUrl;
    this.events = events;
    this.dlq = dlq;
    this.requests = requests;
    this.contexts = contexts;
  }

  /** Ships deployment {@code d}'s files (a manifest entry); the number of dead-lettered lines. */
  long ship(JsonNode d) throws Exception {
    String id = d.path("id").asText();
    Integer steps =
        d.path("logFormat").asText().matches("VLLM_V1_SPEC_V[12]")
            ? d.path("draftTokens").asInt()
            : null;
    NormaliseConfig normalise =
        new NormaliseConfig(
            NormaliseConfig.DEFAULT_DECODE_LOG_INTERVAL,
            ZoneId.of("UTC"),
            NormaliseConfig.defaults().acceptRateDefinition(),
            steps,
            logYear);
    ShipConfig ship =
        new ShipConfig(
            bootstrap,
            registryUrl,
            events,
            dlq,
            id,
            d.path("host").asText(),
            normalise,
            Map.of(),
            requests,
            contexts,
            new RunContextSources(DemoManifest.hardware(d), null));
    long dead = 0;
    // one shipper for the deployment's files (engine log first): they share one run context, as
    // under one `ingest tail`
    LogFileShipper shipper = new LogFileShipper(ship);
    try (Stream<Path> files = Files.list(out.resolve(id))) {
      for (Path f :
          files
              .sorted(
                  Comparator.comparing(
                      (Path p) -> !p.getFileName().toString().equals("engine.log")))
              .toList()) {
        ShipResult r = shipper.ship(f);
        dead += r.deadLettered();
      }
    }
    return dead;
  }
}
