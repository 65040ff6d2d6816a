package io.specwatch.sink;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes and encodes a poll's records into their tables' buffers on the {@code sink-encode} thread
 * while the next poll runs, and knows, meanwhile, which consumer position the buffers reflect:
 * flushes and commits use the positions from before the newer poll's records, so a position never
 * covers a record that is not in a buffer yet. Used on the polling thread (the rebalance callbacks
 * included); only {@link #encode} runs on the encode thread.
 */
final class PollEncoder {

  // the sink's logger, as before this class had its own file: the log lines read the same
  private static final Logger log = LoggerFactory.getLogger(ClickHouseSink.class);

  private final Consumer<String, byte[]> consumer;
  private final Map<String, TableLoader<?>> byTopic;

  private final ExecutorService encoder =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "sink-encode");
            t.setDaemon(true);
            return t;
          });

  /** The polled records being decoded and encoded into the buffers on {@code sink-encode}. */
  private Future<?> encoding;

  /**
   * While the records of the last poll are (or may be) still being encoded: per assigned partition,
   * the position the buffers reflect (the first offset of the last poll's records, else the
   * position). Null when everything polled is in the buffers (then the consumer's position).
   */
  private Map<TopicPartition, Long> encodedUpTo;

  /** {@code byTopic}: the table loader each topic's records go to. */
  PollEncoder(Consumer<String, byte[]> consumer, Map<String, TableLoader<?>> byTopic) {
    this.consumer = consumer;
    this.byTopic = byTopic;
  }

  /** Decodes and encodes polled records into their tables' buffers (on the calling thread). */
  void encode(List<ConsumerRecord<String, byte[]>> records, Instant insertedAt) {
    for (ConsumerRecord<String, byte[]> record : records) {
      byTopic.get(record.topic()).accept(record, insertedAt);
    }
    for (TableLoader<?> l : byTopic.values()) {
      l.publish(); // whole rows only: the streamed upload may send them
    }
  }

  /** Hands polled records to {@code sink-encode}; {@link #await} waits for them. */
  void submit(List<ConsumerRecord<String, byte[]>> records, Instant insertedAt) {
    encoding = encoder.submit(() -> encode(records, insertedAt));
  }

  /** Waits until the records handed to {@code sink-encode} are in the buffers. */
  void await() {
    Future<?> pending = encoding;
    if (pending == null) {
      return;
    }
    encoding = null;
    try {
      pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while encoding polled records", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("encoding polled records failed", e.getCause());
    }
  }

  /** As {@link #await}, logging a failed encode instead of throwing; then {@link #allEncoded}. */
  void awaitQuietly() {
    try {
      await();
    } catch (RuntimeException e) {
      log.warn("Encoding the last polled records failed", e);
    }
    encodedUpTo = null;
  }

  /** No records handed to {@code sink-encode} are outstanding. */
  boolean idle() {
    return encoding == null;
  }

  /**
   * {@code records} were polled and are not in the buffers yet: until {@link #allEncoded}, {@link
   * #position} answers with the positions from before them. None (empty): the consumer's position.
   */
  void polled(ConsumerRecords<String, byte[]> records) {
    encodedUpTo = records.isEmpty() ? null : positionsBefore(records);
  }

  /** Everything polled is in the buffers: {@link #position} is the consumer's position again. */
  void allEncoded() {
    encodedUpTo = null;
  }

  /**
   * Per assigned partition, the position before {@code records}: the first offset of its records in
   * them (a control record skipped before it is read again after a restart, harmlessly), else the
   * consumer's position.
   */
  private Map<TopicPartition, Long> positionsBefore(ConsumerRecords<String, byte[]> records) {
    Map<TopicPartition, Long> before = new HashMap<>();
    for (TopicPartition tp : consumer.assignment()) {
      List<ConsumerRecord<String, byte[]>> of = records.records(tp);
      before.put(tp, of.isEmpty() ? consumer.position(tp) : of.get(0).offset());
    }
    return before;
  }

  /** The position the buffers reflect (see {@link #polled}). */
  long position(TopicPartition tp) {
    Map<TopicPartition, Long> upTo = encodedUpTo;
    if (upTo != null) {
      Long p = upTo.get(tp);
      if (p != null) {
        return p;
      }
    }
    return consumer.position(tp);
  }

  /** Stops the encode thread (interrupting an encode in progress). */
  void shutdownNow() {
    encoder.shutdownNow();
  }
}
