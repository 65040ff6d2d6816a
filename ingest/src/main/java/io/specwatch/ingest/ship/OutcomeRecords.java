package io.specwatch.ingest.ship;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.serde.AvroSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * Outcomes to producer records, shared by {@code ship} and {@code tail}: DecodeEvents keyed by
 * deploymentId to the decode topic, RequestAcceptances keyed by deploymentId to the request topic,
 * DeadLetters keyed by source to the dead-letter topic. Owns its serdes; close it.
 */
public final class OutcomeRecords implements AutoCloseable {

  private final ShipConfig config;
  private final Serde<DecodeEvent> events;
  private final Serde<RequestAcceptance> requests;
  private final Serde<DeadLetter> deadLetters;

  public OutcomeRecords(ShipConfig config) {
    this.config = config;
    this.events = AvroSerde.forClass(DecodeEvent.class, config.serdeConfig(), false);
    this.requests = AvroSerde.forClass(RequestAcceptance.class, config.serdeConfig(), false);
    this.deadLetters = AvroSerde.forClass(DeadLetter.class, config.serdeConfig(), false);
  }

  /** The record of one outcome, or null when there is nothing to send. */
  public ProducerRecord<String, byte[]> toRecord(IngestOutcome outcome, String source) {
    if (outcome instanceof IngestOutcome.Event e) {
      return new ProducerRecord<>(
          config.decodeTopic(),
          config.deploymentId(),
          events.serializer().serialize(config.decodeTopic(), e.event()));
    }
    if (outcome instanceof IngestOutcome.Request r) {
      return new ProducerRecord<>(
          config.requestTopic(),
          config.deploymentId(),
          requests.serializer().serialize(config.requestTopic(), r.request()));
    }
    if (outcome instanceof IngestOutcome.Dead d) {
      return new ProducerRecord<>(
          config.dlqTopic(),
          source,
          deadLetters.serializer().serialize(config.dlqTopic(), d.deadLetter()));
    }
    return null;
  }

  @Override
  public void close() {
    events.close();
    requests.close();
    deadLetters.close();
  }
}
