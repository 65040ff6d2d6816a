package io.specwatch.ingest.cli;

import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipResult;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ship}: one whole file to Kafka, then exit 0 (non-zero on any delivery failure). */
@Command(
    name = "ship",
    mixinStandardHelpOptions = true,
    description = "Ship a whole log file to the decode-events and dead-letter topics, then exit.")
final class ShipCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--file", required = true, description = "Log file to ship.")
  Path file;

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
      names = "--bootstrap",
      defaultValue = "${env:SPECWATCH_BOOTSTRAP:-127.0.0.1:19092}",
      description = "Kafka bootstrap servers (env SPECWATCH_BOOTSTRAP, default ${DEFAULT-VALUE}).")
  String bootstrap;

  @Option(
      names = "--registry-url",
      defaultValue = "${env:SPECWATCH_REGISTRY_URL:-http://127.0.0.1:18081/apis/ccompat/v7}",
      description = "Schema registry URL (env SPECWATCH_REGISTRY_URL, default ${DEFAULT-VALUE}).")
  String registryUrl;

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
      names = "--producer-property",
      description = "Raw Kafka producer setting k=v (repeatable), e.g. for SASL/TLS.")
  Map<String, String> producerProperties = Map.of();

  @Mixin NormaliseOptions normalise;

  @Override
  public Integer call() {
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException("file: cannot read '" + file + "'");
    }
    ShipConfig config =
        new ShipConfig(
            bootstrap,
            registryUrl,
            topic,
            dlqTopic,
            deployment,
            host == null || host.isBlank() ? localHost() : host,
            normalise.toConfig(),
            producerProperties,
            requestTopic);
    ShipResult r = new LogFileShipper(config).ship(file);
    spec.commandLine()
        .getOut()
        .printf(
            "shipped %s: lines=%d recognised=%d dead-lettered=%d unrecognised=%d%n",
            file, r.linesRead(), r.recognised(), r.deadLettered(), r.unrecognised());
    return 0;
  }

  private static String localHost() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
