package io.specwatch.ingest.cli;

import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.runtime.KafkaOptions;
import io.specwatch.serde.Topics;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where shipped records go and under which identity: the options {@code ship}, {@code tail} and
 * {@code scrape} share, each with its env-var equivalent.
 */
final class ShipTargetOptions {

  @Option(
      names = "--deployment",
      defaultValue = "${env:SPECWATCH_DEPLOYMENT}",
      description = "Deployment id, the record key (env SPECWATCH_DEPLOYMENT).")
  String deployment;

  @Option(
      names = "--host",
      defaultValue = "${env:SPECWATCH_HOST}",
      description = "GPU host name recorded in events (env SPECWATCH_HOST, default: this host).")
  String host;

  @Option(
      names = "--topic",
      defaultValue = "${env:SPECWATCH_DECODE_TOPIC:-specwatch.decode-events.v1}",
      description = "Decode-events topic (env SPECWATCH_DECODE_TOPIC, default ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--dlq-topic",
      defaultValue = "${env:SPECWATCH_DLQ_TOPIC:-specwatch.dead-letter.v1}",
      description = "Dead-letter topic (env SPECWATCH_DLQ_TOPIC, default ${DEFAULT-VALUE}).")
  String dlqTopic;

  @Option(
      names = "--request-topic",
      defaultValue = "${env:SPECWATCH_REQUEST_TOPIC:-specwatch.request-acceptance.v1}",
      description =
          "Request-acceptance topic for per-request records (env SPECWATCH_REQUEST_TOPIC,"
              + " default ${DEFAULT-VALUE}).")
  String requestTopic;

  @Option(
      names = "--max-line-bytes",
      defaultValue = "${env:SPECWATCH_MAX_LINE_BYTES:-262144}",
      description =
          "ship/tail: bytes kept of one log line; a longer line is dead-lettered (LineTooLong) with"
              + " its head, so memory stays bounded (env SPECWATCH_MAX_LINE_BYTES, default"
              + " ${DEFAULT-VALUE}; at most the producer's max.request.size minus 64 KiB).")
  int maxLineBytes;

  @Option(
      names = "--producer-property",
      description = "Raw Kafka producer setting k=v (repeatable), e.g. for SASL/TLS.")
  Map<String, String> producerProperties = Map.of();

  /**
   * The validated shipping settings. Raw client settings: the Kafka properties file and {@code -K}
   * first, {@code --producer-property} last.
   */
  ShipConfig toShipConfig(KafkaOptions kafka, NormaliseConfig normalise) {
    return toShipConfig(kafka, normalise, null);
  }

  /** The validated shipping settings with the run-context options (null: none). */
  ShipConfig toShipConfig(
      KafkaOptions kafka, NormaliseConfig normalise, RunContextOptions context) {
    Map<String, String> raw = new HashMap<>(kafka.rawProperties());
    raw.putAll(producerProperties);
    return new ShipConfig(
        kafka.bootstrap(),
        kafka.registryUrl(),
        topic,
        dlqTopic,
        deployment,
        host == null || host.isBlank() ? localHost() : host,
        normalise,
        raw,
        requestTopic,
        context == null ? Topics.RUN_CONTEXT : context.topic,
        context == null ? RunContextSources.NONE : context.toSources(System.getenv()),
        maxLineBytes);
  }

  private static String localHost() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
