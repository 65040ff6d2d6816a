package io.specwatch.sink;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.serde.AvroSerde;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends records the sink cannot use (undecodable values) to the dead-letter topic, keyed by source
 * topic, with the raw bytes for a replay. {@link #flush()} runs before offsets are committed, so a
 * dead letter is never lost behind a commit.
 */
final class DeadLetters implements AutoCloseable {

  static final String DEFAULT_TOPIC = "specwatch.dead-letter.v1";
  static final String STAGE_DECODE = "sink.decode";

  private final KafkaProducer<String, DeadLetter> producer;
  private final String topic;
  private final String host;

  DeadLetters(SinkConfig config, String topic) {
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
    this.topic = topic;
    this.host = hostName();
  }

  Future<RecordMetadata> send(ConsumerRecord<String, byte[]> record, Exception error) {
    DeadLetter letter =
        DeadLetter.newBuilder()
            .setStage(STAGE_DECODE)
            .setSource(record.topic())
            .setHost(host)
            .setTopic(record.topic())
            .setPartition(record.partition())
            .setOffset(record.offset())
            .setErrorClass(error.getClass().getName())
            .setErrorMessage(String.valueOf(error.getMessage()))
            .setFailedAt(Instant.now())
            .setRaw(ByteBuffer.wrap(record.value() == null ? new byte[0] : record.value()))
            .setContext(record.key() == null ? Map.of() : Map.of("key", record.key()))
            .build();
    return producer.send(new ProducerRecord<>(topic, record.topic(), letter));
  }

  void flush() {
    producer.flush();
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
