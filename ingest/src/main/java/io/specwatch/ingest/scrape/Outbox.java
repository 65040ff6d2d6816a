package io.specwatch.ingest.scrape;

import io.micrometer.core.instrument.Counter;
import io.specwatch.ingest.scrape.Scraper.ScrapeException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The scrape loop's delivery: sends a round's records, waits until each is acknowledged or failed
 * ({@link Producer#flush()}), and keeps the records that failed with a retriable error (the
 * delivery timeout of a broker away for minutes, metadata unavailable) to send again, in their
 * order, with the same bytes and so the same event ids. A non-retriable failure ends the run
 * ({@link ScrapeException}: exit non-zero). Memory stays bounded because the loop scrapes nothing
 * new while records wait ({@link #flushPending()} false). Loop thread only.
 */
final class Outbox {

  private final Producer<String, byte[]> producer;
  private final Counter kafkaErrors;
  private final Consumer<ProducerRecord<String, byte[]>> acked;
  private final Deque<ProducerRecord<String, byte[]>> pending = new ArrayDeque<>();
  private Exception lastError;

  Outbox(
      Producer<String, byte[]> producer,
      Counter kafkaErrors,
      Consumer<ProducerRecord<String, byte[]>> acked) {
    this.producer = producer;
    this.kafkaErrors = kafkaErrors;
    this.acked = acked;
  }

  /** Records waiting to be sent again. */
  int pending() {
    return pending.size();
  }

  /** The last retriable error, for the log. */
  Exception lastError() {
    return lastError;
  }

  /** Sends the waiting records again; true when none is left waiting. */
  boolean flushPending() {
    if (pending.isEmpty()) {
      return true;
    }
    List<ProducerRecord<String, byte[]>> again = new ArrayList<>(pending);
    pending.clear();
    send(again);
    return pending.isEmpty();
  }

  /**
   * Sends {@code records} in order and waits for them; those failing retriably wait for {@link
   * #flushPending()}. While records wait, new ones queue behind them unsent (their order holds).
   */
  void deliver(List<ProducerRecord<String, byte[]>> records) {
    if (!pending.isEmpty()) {
      pending.addAll(records);
      return;
    }
    send(records);
  }

  private void send(List<ProducerRecord<String, byte[]>> records) {
    if (records.isEmpty()) {
      return;
    }
    AtomicReferenceArray<Exception> errors = new AtomicReferenceArray<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      int index = i;
      try {
        producer.send(records.get(i), (meta, e) -> errors.set(index, e));
      } catch (RetriableException e) {
        errors.set(index, e); // e.g. the buffer full for max.block.ms: sent again later
      }
    }
    producer.flush();
    for (int i = 0; i < records.size(); i++) {
      Exception e = errors.get(i);
      if (e == null) {
        acked.accept(records.get(i));
        continue;
      }
      kafkaErrors.increment();
      if (!(e instanceof RetriableException)) {
        throw new ScrapeException("delivery to Kafka failed: " + e, e);
      }
      lastError = e;
      pending.add(records.get(i));
    }
  }
}
