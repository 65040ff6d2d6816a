package io.specwatch.ingest.generate;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import io.specwatch.serde.AvroSerde;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code --publish}: DecodeEvents, RequestAcceptances and RunContexts keyed by deployment id, in
 * the Confluent Avro wire format with the shipper's serde ({@link AvroSerde}), through one
 * idempotent acks=all producer. Close it to flush; {@link #close()} fails when a send failed.
 */
public final class KafkaOutput implements TickHandler, AutoCloseable {

  /**
   * Where to publish.
   *
   * @param bootstrap Kafka bootstrap servers
   * @param registryUrl schema registry URL
   * @param decodeTopic decode-events topic
   * @param requestTopic request-acceptance topic
   * @param runContextTopic run-context topic
   * @param producerOverrides raw producer settings (SASL/TLS, tuning)
   */
  public record Target(
      String bootstrap,
      String registryUrl,
      String decodeTopic,
      String requestTopic,
      String runContextTopic,
      Map<String, String> producerOverrides) {

    public Target {
      for (String[] s :
          new String[][] {
            {bootstrap, "bootstrap (SPECWATCH_BOOTSTRAP)"},
            {registryUrl, "registry-url (SPECWATCH_REGISTRY_URL)"},
            {decodeTopic, "topic"},
            {requestTopic, "request-topic"},
            {runContextTopic, "run-context-topic"}
          }) {
        if (s[0] == null || s[0].isBlank()) {
          throw new IllegalArgumentException("setting '" + s[1] + "' is required");
        }
      }
      producerOverrides = Map.copyOf(producerOverrides);
    }

    Properties producerProperties() {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.CLIENT_ID_CONFIG, "specwatch-generate");
      p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
      p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
      p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
      p.putAll(producerOverrides);
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      return p;
    }
  }

  /** Records sent per kind. */
  public record Sent(long decodeEvents, long requests, long runContexts) {}

  private final Scenario scenario;
  private final Target target;
  private final Producer<String, byte[]> producer;
  private final Serde<DecodeEvent> events;
  private final Serde<RequestAcceptance> requests;
  private final Serde<RunContext> contexts;
  private final Map<String, String> contextIds = new HashMap<>();
  private final AtomicReference<Exception> error = new AtomicReference<>();
  private final AtomicLong sentEvents = new AtomicLong();
  private final AtomicLong sentRequests = new AtomicLong();
  private final AtomicLong sentContexts = new AtomicLong();
  private final Callback callback =
      (meta, e) -> {
        if (e != null) {
          error.compareAndSet(null, e);
        }
      };

  public KafkaOutput(Scenario scenario, Target target) {
    this.scenario = scenario;
    this.target = target;
    Map<String, Object> serde = Map.of("schema.registry.url", target.registryUrl());
    this.events = AvroSerde.forClass(DecodeEvent.class, serde, false);
    this.requests = AvroSerde.forClass(RequestAcceptance.class, serde, false);
    this.contexts = AvroSerde.forClass(RunContext.class, serde, false);
    this.producer =
        new KafkaProducer<>(
            target.producerProperties(), new StringSerializer(), new ByteArraySerializer());
  }

  @Override
  public void begin(DeploymentSpec d) {}

  @Override
  public void tick(DeploymentSpec d, Tick t) {
    failIfBroken();
    if (t.newSegment()) {
      RunContext rc = EventRecords.runContext(d, t.segment(), t.start());
      contextIds.put(d.id(), rc.getContextId());
      send(
          target.runContextTopic(),
          d.id(),
          contexts.serializer().serialize(target.runContextTopic(), rc));
      sentContexts.incrementAndGet();
    }
    DecodeEvent e = EventRecords.decodeEvent(scenario, d, t, contextIds.get(d.id()));
    send(target.decodeTopic(), d.id(), events.serializer().serialize(target.decodeTopic(), e));
    sentEvents.incrementAndGet();
    if (d.requestFormat() != RequestFormat.NONE && d.method().speculative()) {
      for (Tick.FinishedRequest r : t.finished()) {
        RequestAcceptance ra = EventRecords.request(scenario, d, t, r);
        send(
            target.requestTopic(),
            d.id(),
            requests.serializer().serialize(target.requestTopic(), ra));
        sentRequests.incrementAndGet();
      }
    }
  }

  private void send(String topic, String key, byte[] value) {
    producer.send(new ProducerRecord<>(topic, key, value), callback);
  }

  @Override
  public void end(DeploymentSpec d) {
    contextIds.remove(d.id());
  }

  @Override
  public void flush() {
    producer.flush();
    failIfBroken();
  }

  private void failIfBroken() {
    Exception e = error.get();
    if (e != null) {
      throw new IllegalStateException("delivery to Kafka failed: " + e, e);
    }
  }

  public Sent sent() {
    return new Sent(sentEvents.get(), sentRequests.get(), sentContexts.get());
  }

  @Override
  public void close() {
    try {
      producer.flush();
      producer.close();
    } finally {
      events.close();
      requests.close();
      contexts.close();
    }
    failIfBroken();
  }
}
