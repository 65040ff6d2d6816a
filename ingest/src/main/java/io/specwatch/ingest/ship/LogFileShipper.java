package io.specwatch.ingest.ship;

import io.specwatch.ingest.normalise.FileFingerprint;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.AvroSerde;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ships one whole log file: DecodeEvents keyed by deploymentId to the decode-events topic,
 * DeadLetters keyed by source to the dead-letter topic, with an idempotent acks=all producer.
 * Returns after everything is acknowledged. Tailing with checkpoints comes later.
 */
public final class LogFileShipper {

  private static final Logger LOG = LoggerFactory.getLogger(LogFileShipper.class);

  private final ShipConfig config;
  private final Clock clock;

  public LogFileShipper(ShipConfig config) {
    this(config, Clock.systemUTC());
  }

  public LogFileShipper(ShipConfig config, Clock clock) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Ships the file and flushes.
   *
   * @throws ShipException when a record could not be delivered or the file could not be read
   */
  public ShipResult ship(Path file) {
    SourceContext source;
    try {
      source =
          new SourceContext(
              config.deploymentId(),
              config.host(),
              file.toAbsolutePath().normalize().toString(),
              FileFingerprint.of(file));
    } catch (IOException e) {
      throw new ShipException("cannot read " + file, e);
    }
    LOG.info("shipping file={} with {}", source.source(), config);
    LineIngestor ingestor =
        new LineIngestor(source, config.normalise(), ParserRegistry.defaults(), clock);
    AtomicReference<Exception> sendError = new AtomicReference<>();
    ShipResult[] result = {ShipResult.empty()};
    try (Serde<DecodeEvent> events =
            AvroSerde.forClass(DecodeEvent.class, config.serdeConfig(), false);
        Serde<DeadLetter> deadLetters =
            AvroSerde.forClass(DeadLetter.class, config.serdeConfig(), false);
        Producer<String, byte[]> producer =
            new KafkaProducer<>(
                config.producerProperties(), new StringSerializer(), new ByteArraySerializer())) {
      LogFileReader.forEachLine(
          file,
          line -> {
            if (sendError.get() != null) {
              return;
            }
            IngestOutcome outcome = ingestor.ingest(line);
            ProducerRecord<String, byte[]> record = toRecord(outcome, source, events, deadLetters);
            if (record != null) {
              producer.send(
                  record,
                  (meta, e) -> {
                    if (e != null) {
                      sendError.compareAndSet(null, e);
                    }
                  });
            }
            result[0] = result[0].plus(outcome);
          });
      producer.flush();
    } catch (IOException e) {
      throw new ShipException("cannot read " + file, e);
    } catch (RuntimeException e) {
      throw new ShipException("shipping " + file + " failed: " + e.getMessage(), e);
    }
    if (sendError.get() != null) {
      throw new ShipException(
          "delivery to Kafka failed for " + file + ": " + sendError.get(), sendError.get());
    }
    LOG.info("shipped file={} result={}", source.source(), result[0]);
    return result[0];
  }

  private ProducerRecord<String, byte[]> toRecord(
      IngestOutcome outcome,
      SourceContext source,
      Serde<DecodeEvent> events,
      Serde<DeadLetter> deadLetters) {
    if (outcome instanceof IngestOutcome.Event e) {
      return new ProducerRecord<>(
          config.decodeTopic(),
          source.deploymentId(),
          events.serializer().serialize(config.decodeTopic(), e.event()));
    }
    if (outcome instanceof IngestOutcome.Dead d) {
      return new ProducerRecord<>(
          config.dlqTopic(),
          source.source(),
          deadLetters.serializer().serialize(config.dlqTopic(), d.deadLetter()));
    }
    return null;
  }
}
