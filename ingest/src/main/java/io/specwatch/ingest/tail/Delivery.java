package io.specwatch.ingest.tail;

import io.specwatch.ingest.ship.ShipException;
import io.specwatch.ingest.ship.ShipObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the {@link Tailer}'s records to Kafka. A record whose delivery fails with a retriable error
 * goes on a resend queue that the loop sends again; a non-retriable failure is kept as the fatal
 * error that stops the run; records left unacknowledged by a stop are counted as abandoned. The
 * send methods run on the loop thread, the callbacks on the producer's I/O thread.
 */
final class Delivery {

  // logged under the tailer's name, as before this was split out of Tailer
  private static final Logger LOG = LoggerFactory.getLogger(Tailer.class);
  private static final Duration SEND_RETRY_BACKOFF = Duration.ofMillis(500);

  /** A record whose delivery failed with a retriable error, to be sent again by the loop. */
  private record Resend(ProducerRecord<String, byte[]> record, Runnable acked) {}

  private final StopSignal signal;
  private final ShipObserver observer;
  private final AtomicReference<Exception> fatal = new AtomicReference<>();
  private final AtomicLong abandoned = new AtomicLong();
  private final Queue<Resend> resends = new ConcurrentLinkedQueue<>();
  private final AtomicReference<Exception> lastRetriable = new AtomicReference<>();

  Delivery(StopSignal signal, ShipObserver observer) {
    this.signal = signal;
    this.observer = observer;
  }

  /** True once Kafka rejected a record for good. */
  boolean failed() {
    return fatal.get() != null;
  }

  void throwIfFatal() {
    Exception e = fatal.get();
    if (e != null) {
      throw new ShipException("delivery to Kafka failed: " + e, e);
    }
  }

  /** Records not acknowledged because the run stopped; they are read again after a restart. */
  long abandoned() {
    return abandoned.get();
  }

  /** True while records wait for the next resend round (Kafka away). */
  boolean resendsPending() {
    return !resends.isEmpty();
  }

  /** Queues a record for the next resend round instead of sending it now. */
  void queueResend(ProducerRecord<String, byte[]> record, Runnable acked) {
    resends.add(new Resend(record, acked));
  }

  void send(
      Producer<String, byte[]> producer, ProducerRecord<String, byte[]> record, Runnable acked) {
    while (!signal.stopping()) {
      try {
        producer.send(
            record,
            (meta, e) -> {
              if (e == null) {
                acked.run();
                return;
              }
              observer.kafkaError(e);
              if (signal.stopping()) {
                // aborted by the shutdown close: not acknowledged, so re-read after restart
                abandoned.incrementAndGet();
              } else if (e instanceof RetriableException) {
                // e.g. the broker is down long enough for metadata to expire ("not present in
                // metadata after max.block.ms"): the producer reports it here, not by throwing.
                // Send again from the loop thread (never block the producer's I/O thread); the
                // entry keeps its slot, so reading stays bounded meanwhile.
                lastRetriable.set(e);
                resends.add(new Resend(record, acked));
              } else {
                // not retriable (delivery timeout is unbounded): stop, keep checkpoint
                if (fatal.compareAndSet(null, e) && !signal.crashed()) {
                  LOG.error("delivery to topic={} failed, stopping", record.topic(), e);
                }
              }
            });
        return;
      } catch (RetriableException e) {
        observer.kafkaError(e);
        LOG.warn("send to topic={} blocked ({}); retrying", record.topic(), e.toString());
        signal.sleep(SEND_RETRY_BACKOFF);
      }
    }
  }

  /** Sends again what failed retriably since the last round (in failure order). */
  void resendFailed(Producer<String, byte[]> producer) {
    if (resends.isEmpty()) {
      return;
    }
    List<Resend> batch = new ArrayList<>();
    for (Resend r; (r = resends.poll()) != null; ) {
      batch.add(r);
    }
    LOG.warn(
        "re-sending {} records after a retriable delivery error: {}",
        batch.size(),
        String.valueOf(lastRetriable.get()));
    for (int i = 0; i < batch.size(); i++) {
      if (signal.stopping()) {
        abandoned.addAndGet(batch.size() - i); // not acknowledged: read again after a restart
        return;
      }
      Resend r = batch.get(i);
      send(producer, r.record(), r.acked());
      if (!resends.isEmpty()) {
        // failed again at once (metadata still unavailable after max.block.ms): keep the rest
        // for the next round instead of blocking max.block.ms on each
        resends.addAll(batch.subList(i + 1, batch.size()));
        return;
      }
    }
  }
}
