package io.specwatch.sink;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.serde.AvroSerde;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends records the sink cannot load to the dead-letter topic, keyed by source topic, with the raw
 * value bytes and where they came from, for a replay after a fix. Stages: {@code sink.decode}
 * (undecodable value), {@code sink.map} (a value the table cannot hold) and {@code sink.insert}
 * (ClickHouse rejected the row alone). {@link #flush()} runs before offsets are committed, so a
 * dead letter is never lost behind a commit. Thread-safe (inserts run on their own thread).
 */
final class DeadLetters implements AutoCloseable {

  static final String STAGE_DECODE = "sink.decode";
  static final String STAGE_MAP = "sink.map";
  static final String STAGE_INSERT = "sink.insert";

  private final KafkaProducer<String, DeadLetter> producer;
  private final String topic;
  private final String host;
  private final List<Future<RecordMetadata>> pending = new ArrayList<>();

  DeadLetters(SinkConfig config) {
    Properties p = new Properties();
    p.putAll(config.kafkaOverrides());
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrap());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.CLIENT_ID_CONFIG, config.groupId() + "-dead-letters");
    this.producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(DeadLetter.class, config.serdeConfig(), false).serializer());
    this.topic = config.deadLetterTopic();
    this.host = hostName();
  }

  /** A record that failed at {@code stage}; {@code context} adds table, codes, batch id. */
  synchronized void send(
      String stage,
      TableBuffer.Origin origin,
      String errorClass,
      String errorMessage,
      Map<String, String> context) {
    Map<String, String> ctx = new HashMap<>(context);
    if (origin.key() != null) {
      ctx.put("key", origin.key());
    }
    DeadLetter letter =
        DeadLetter.newBuilder()
            .setStage(stage)
            .setSource(origin.topic())
            .setHost(host)
            .setTopic(origin.topic())
            .setPartition(origin.partition())
            .setOffset(origin.offset())
            .setErrorClass(errorClass)
            .setErrorMessage(String.valueOf(errorMessage))
            .setFailedAt(Instant.now())
            .setRaw(ByteBuffer.wrap(origin.raw() == null ? new byte[0] : origin.raw()))
            .setContext(ctx)
            .build();
    pending.add(producer.send(new ProducerRecord<>(topic, origin.topic(), letter)));
  }

  /** Waits until every dead letter sent so far is acknowledged; throws if one was not. */
  synchronized void flush() {
    producer.flush();
    try {
      for (Future<RecordMetadata> f : pending) {
        f.get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "a dead letter could not be written to " + topic + "; offsets not committed",
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while flushing dead letters", e);
    } finally {
      pending.clear();
    }
  }

  /** Dead letters sent and not yet flushed. */
  synchronized int pending() {
    return pending.size();
  }

  @Override
  public void close() {
    producer.close();
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
