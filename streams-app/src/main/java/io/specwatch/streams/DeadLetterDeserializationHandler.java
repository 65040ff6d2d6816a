package io.specwatch.streams;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record that cannot be decoded (not Avro, unknown schema id, incompatible schema) becomes a
 * {@code DeadLetter} (stage {@code streams.deserialize}) with its raw bytes, topic, partition and
 * offset, and processing continues. A retriable failure (registry unreachable or 5xx, Kafka
 * retriable) is not the record's fault: the app fails, exits non-zero and retries after a restart.
 */
public final class DeadLetterDeserializationHandler implements DeserializationExceptionHandler {
  static final String STAGE = "streams.deserialize";
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetterDeserializationHandler.class);
  private DeadLetters deadLetters;

  @Override
  public void configure(Map<String, ?> configs) {
    deadLetters = DeadLetters.configure(configs);
  }

  @Override
  public Response handleError(
      ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
    if (DeadLetters.isRetriable(exception)) {
      LOG.error(
          "topic {} partition {} offset {}: retriable failure while decoding, failing",
          record.topic(),
          record.partition(),
          record.offset(),
          exception);
      return Response.fail();
    }
    LOG.warn(
        "topic {} partition {} offset {}: undecodable record dead-lettered: {}",
        record.topic(),
        record.partition(),
        record.offset(),
        exception.toString());
    return Response.resume(
        List.of(deadLetters.record(STAGE, context, record.key(), record.value(), exception)));
  }
}
