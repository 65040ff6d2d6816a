package io.specwatch.streams;

import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record a processor throws on (e.g. {@link InvalidEventException}: key differs from the
 * deploymentId) becomes a {@code DeadLetter} (stage {@code streams.process}) carrying the raw bytes
 * of the source record that led to it, topic, partition, offset and processor node; processing
 * continues. Retriable failures fail the app (see {@link DeadLetterDeserializationHandler}).
 */
public final class DeadLetterProcessingHandler implements ProcessingExceptionHandler {
  static final String STAGE = "streams.process";
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetterProcessingHandler.class);
  private DeadLetters deadLetters;

  @Override
  public void configure(Map<String, ?> configs) {
    deadLetters = DeadLetters.configure(configs);
  }

  @Override
  public Response handleError(
      ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
    if (DeadLetters.isRetriable(exception)) {
      LOG.error(
          "processor {} topic {} offset {}: retriable failure, failing",
          context.processorNodeId(),
          context.topic(),
          context.offset(),
          exception);
      return Response.fail();
    }
    LOG.warn(
        "processor {} topic {} partition {} offset {}: record dead-lettered: {}",
        context.processorNodeId(),
        context.topic(),
        context.partition(),
        context.offset(),
        exception.toString());
    return Response.resume(
        List.of(
            deadLetters.record(
                STAGE, context, context.sourceRawKey(), context.sourceRawValue(), exception)));
  }
}
