package io.specwatch.ingest.ship;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import io.specwatch.serde.AvroSerde;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * Outcomes to producer records, shared by {@code ship}, {@code tail} and {@code scrape}:
 * DecodeEvents keyed by their deploymentId to the decode topic, RequestAcceptances keyed by
 * deploymentId to the request topic, RunContexts keyed by deploymentId to the (compacted)
 * run-context topic, DeadLetters keyed by source to the dead-letter topic. Owns its serdes; close
 * it. Not thread-safe (the DecodeEvent encoder reuses its buffer): one per shipping thread.
 */
public final class OutcomeRecords implements AutoCloseable {

  private final ShipConfig config;
  private final Serde<DecodeEvent> events;
  private final Serde<RequestAcceptance> requests;
  private final Serde<RunContext> contexts;
  private final Serde<DeadLetter> deadLetters;
  private final FastEventSerializer fastEvents;
  private int preEncodedSchemaId = -1;
  private String lastContextId;
  private byte[] lastContextField;

  public OutcomeRecords(ShipConfig config) {
    this.config = config;
    this.events = AvroSerde.forClass(DecodeEvent.class, config.serdeConfig(), false);
    this.requests = AvroSerde.forClass(RequestAcceptance.class, config.serdeConfig(), false);
    this.contexts = AvroSerde.forClass(RunContext.class, config.serdeConfig(), false);
    this.deadLetters = AvroSerde.forClass(DeadLetter.class, config.serdeConfig(), false);
    this.fastEvents =
        new FastEventSerializer(
            events.serializer(),
            io.specwatch.serde.SerdeConfig.from(config.serdeConfig(), false).useLatestVersion());
  }

  /** The records of one outcome, in publication order (empty when there is nothing to send). */
  public List<ProducerRecord<String, byte[]>> toRecords(IngestOutcome outcome, String source) {
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>(1);
    for (IngestOutcome part : outcome.parts()) {
      ProducerRecord<String, byte[]> r = toRecord(part, source);
      if (r != null) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * Whether {@link IngestOutcome.PreEncoded} events can be sent: the hand encoder passed its
   * self-check on the decode topic (the first event goes through the registry's serializer).
   */
  public boolean preEncodedReady() {
    if (preEncodedSchemaId < 0) {
      preEncodedSchemaId = fastEvents.handEncoderSchemaId(config.decodeTopic());
    }
    return preEncodedSchemaId >= 0;
  }

  /** The record of one single outcome, or null when there is nothing to send. */
  public ProducerRecord<String, byte[]> toRecord(IngestOutcome outcome, String source) {
    if (outcome instanceof IngestOutcome.Event e) {
      return new ProducerRecord<>(
          config.decodeTopic(),
          e.event().getDeploymentId(),
          fastEvents.serialize(config.decodeTopic(), e.event()));
    }
    if (outcome instanceof IngestOutcome.PreEncoded p) {
      if (!preEncodedReady()) {
        throw new IllegalStateException("a pre-encoded event before the encoder's self-check");
      }
      return new ProducerRecord<>(
          config.decodeTopic(),
          p.deploymentId(),
          p.event()
              .assemble(
                  preEncodedSchemaId,
                  p.eventTimeMs(),
                  p.ingestTimeMs(),
                  p.intervalMs(),
                  p.cycleMs(),
                  contextField(p.runContextId())));
    }
    if (outcome instanceof IngestOutcome.Request r) {
      return new ProducerRecord<>(
          config.requestTopic(),
          r.request().getDeploymentId(),
          requests.serializer().serialize(config.requestTopic(), r.request()));
    }
    if (outcome instanceof IngestOutcome.Context c) {
      return context(c.runContext());
    }
    if (outcome instanceof IngestOutcome.Dead d) {
      return new ProducerRecord<>(
          config.dlqTopic(),
          source,
          deadLetters.serializer().serialize(config.dlqTopic(), d.deadLetter()));
    }
    return null;
  }

  /** The encoded run context id, kept while the id repeats. */
  private byte[] contextField(String id) {
    if (id == null) {
      return SglangEventParts.contextField(null); // shared, no array per event
    }
    if (!id.equals(lastContextId)) {
      lastContextField = SglangEventParts.contextField(id);
      lastContextId = id;
    }
    return lastContextField;
  }

  /** The record of a run context. */
  public ProducerRecord<String, byte[]> context(RunContext rc) {
    return new ProducerRecord<>(
        config.runContextTopic(),
        rc.getDeploymentId(),
        contexts.serializer().serialize(config.runContextTopic(), rc));
  }

  @Override
  public void close() {
    events.close();
    requests.close();
    contexts.close();
    deadLetters.close();
  }
}
