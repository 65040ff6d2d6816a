package io.specwatch.streams;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.serde.AvroSerde;
import io.specwatch.serde.SchemaRegistryException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * Builds the {@code DeadLetter} records the exception handlers hand back to Kafka Streams, which
 * sends them in the task's transaction (exactly-once with the rest of the output).
 *
 * <p>Configured from the Streams properties: {@value #TOPIC_CONFIG} (the dead-letter topic) and the
 * serde settings ({@code schema.registry.url}, ...). Key: the source topic (UTF-8). Value: Avro
 * {@code DeadLetter} with the stage, topic, partition, offset, error class and message, the raw
 * value bytes, and in {@code context}: the raw key (base64), headers (base64), the processor node
 * and task id.
 */
final class DeadLetters {
  /** Streams property naming the dead-letter topic. */
  static final String TOPIC_CONFIG = "specwatch.dead-letter.topic";

  private final String topic;
  private final Serializer<DeadLetter> serializer;
  private final String host;

  private DeadLetters(String topic, Serializer<DeadLetter> serializer) {
    this.topic = topic;
    this.serializer = serializer;
    this.host = hostName();
  }

  /** From the handler's configs; fails naming {@value #TOPIC_CONFIG} when it is missing. */
  static DeadLetters configure(Map<String, ?> configs) {
    Object topic = configs.get(TOPIC_CONFIG);
    if (topic == null || topic.toString().isBlank()) {
      throw new IllegalArgumentException(
          TOPIC_CONFIG + " must be set for the dead-letter handlers");
    }
    return new DeadLetters(
        topic.toString(), AvroSerde.forClass(DeadLetter.class, configs, false).serializer());
  }

  /**
   * Whether {@code e} is an infrastructure failure that may pass (registry unreachable or 5xx,
   * Kafka retriable): then the record is not poison and must not be dead-lettered.
   */
  static boolean isRetriable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SchemaRegistryException sre && sre.isRetriable()) {
        return true;
      }
      if (t instanceof RetriableException) {
        return true;
      }
    }
    return false;
  }

  /** The dead-letter record of a failed record. */
  ProducerRecord<byte[], byte[]> record(
      String stage, ErrorHandlerContext ctx, byte[] rawKey, byte[] rawValue, Exception e) {
    Map<String, String> context = new TreeMap<>();
    if (rawKey != null) {
      context.put("key.base64", Base64.getEncoder().encodeToString(rawKey));
    }
    putHeaders(context, ctx.headers());
    if (ctx.processorNodeId() != null) {
      context.put("processor", ctx.processorNodeId());
    }
    if (ctx.taskId() != null) {
      context.put("task", ctx.taskId().toString());
    }
    context.put("timestamp", Long.toString(ctx.timestamp()));
    String source = ctx.topic() == null ? "streams-app" : ctx.topic();
    DeadLetter letter =
        DeadLetter.newBuilder()
            .setStage(stage)
            .setSource(source)
            .setHost(host)
            .setTopic(ctx.topic())
            .setPartition(ctx.partition() < 0 ? null : ctx.partition())
            .setOffset(ctx.offset() < 0 ? null : ctx.offset())
            .setErrorClass(e.getClass().getName())
            .setErrorMessage(String.valueOf(rootMessage(e)))
            .setFailedAt(Instant.now())
            .setRaw(java.nio.ByteBuffer.wrap(rawValue == null ? new byte[0] : rawValue))
            .setContext(context)
            .build();
    return new ProducerRecord<>(
        topic, null, source.getBytes(StandardCharsets.UTF_8), serializer.serialize(topic, letter));
  }

  private static void putHeaders(Map<String, String> context, Headers headers) {
    if (headers == null) {
      return;
    }
    for (Header h : headers) {
      context.put(
          "header." + h.key(),
          h.value() == null ? "" : Base64.getEncoder().encodeToString(h.value()));
    }
  }

  private static String rootMessage(Throwable e) {
    StringBuilder m = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      m.append(" <- ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    return m.toString();
  }

  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
