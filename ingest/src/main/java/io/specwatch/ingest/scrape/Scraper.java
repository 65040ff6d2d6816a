package io.specwatch.ingest.scrape;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.specwatch.ingest.context.RunContextTracker;
import io.specwatch.ingest.ship.TopicCheck;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.serde.AvroSerde;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scrape loop: every interval, GET each URL, derive INTERVAL DecodeEvents and send them keyed
 * by deployment with the idempotent producer of {@code ship}. A failed scrape (HTTP error,
 * malformed text) is logged and skipped without touching the counter state, so the next good scrape
 * covers the gap. Records whose delivery failed retriably are sent again before any new round is
 * scraped ({@link Outbox}). Runs until {@link #stop()}, max-scrapes or exit-when-idle.
 */
public final class Scraper {

  private static final Logger LOG = LoggerFactory.getLogger(Scraper.class);
  private static final Duration TOPIC_CHECK_TIMEOUT = Duration.ofSeconds(10);

  /** Totals of a run. */
  public record Result(long rounds, long events, long failedScrapes) {}

  private final ScrapeConfig config;
  private final Clock clock;
  private final HttpClient http;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);

  private final MeterRegistry registry;

  public Scraper(ScrapeConfig config, Clock clock) {
    this(config, clock, new SimpleMeterRegistry());
  }

  /**
   * A scraper counting into {@code registry}: {@code specwatch_ingest_scrapes_total}, {@code
   * specwatch_ingest_failed_scrapes_total}, {@code specwatch_ingest_skipped_scrapes_total}, {@code
   * specwatch_ingest_records_total{kind}} and {@code specwatch_ingest_kafka_errors_total}.
   */
  public Scraper(ScrapeConfig config, Clock clock, MeterRegistry registry) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** Asks the loop to finish its current round and return; safe from any thread. */
  public void stop() {
    stopped.countDown();
  }

  /**
   * Waits until {@link #run()} has flushed and returned (for a shutdown hook: waiting for the main
   * thread instead would deadlock with its System.exit).
   */
  public boolean awaitFinished(Duration timeout) throws InterruptedException {
    return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public Result run() {
    try {
      return loop();
    } finally {
      finished.countDown();
    }
  }

  private Result loop() {
    LOG.info(
        "scraping urls={} interval={} engine={} {}",
        config.urls(),
        config.interval(),
        config.engine(),
        config.ship());
    IntervalDeriver deriver =
        new IntervalDeriver(config.ship().deploymentId(), config.ship().host(), config.engine());
    var scrapes = Counter.builder("specwatch.ingest.scrapes").register(registry);
    var failedScrapes = Counter.builder("specwatch.ingest.failed.scrapes").register(registry);
    var sent =
        Counter.builder("specwatch.ingest.records").tag("kind", "decode_event").register(registry);
    var contextsSent =
        Counter.builder("specwatch.ingest.records").tag("kind", "run_context").register(registry);
    var kafkaErrors = Counter.builder("specwatch.ingest.kafka.errors").register(registry);
    var skippedRounds = Counter.builder("specwatch.ingest.skipped.scrapes").register(registry);
    // fails fast when a topic is missing and the broker does not create topics (an unreachable
    // broker only delays the start by the check's timeout)
    Map<String, String> topics = new LinkedHashMap<>();
    topics.put(config.ship().decodeTopic(), "topic (SPECWATCH_DECODE_TOPIC)");
    topics.putIfAbsent(
        config.ship().runContextTopic(), "run-context-topic (SPECWATCH_RUN_CONTEXT_TOPIC)");
    TopicCheck.requireTopics(config.ship().producerProperties(), topics, TOPIC_CHECK_TIMEOUT);
    RunContextTracker contexts =
        config.ship().runContext().newTracker(config.ship().deploymentId());
    long rounds = 0;
    long events = 0;
    long failed = 0;
    try (Serde<DecodeEvent> serde =
            AvroSerde.forClass(DecodeEvent.class, config.ship().serdeConfig(), false);
        Serde<RunContext> contextSerde =
            AvroSerde.forClass(RunContext.class, config.ship().serdeConfig(), false);
        Producer<String, byte[]> producer =
            new KafkaProducer<>(
                config.ship().producerProperties(),
                new StringSerializer(),
                new ByteArraySerializer())) {
      String topic = config.ship().decodeTopic();
      String ctxTopic = config.ship().runContextTopic();
      Outbox outbox =
          new Outbox(
              producer,
              kafkaErrors,
              r -> (r.topic().equals(ctxTopic) ? contextsSent : sent).increment());
      long next = clock.millis();
      while (true) {
        if (!outbox.flushPending()) {
          // Kafka away for longer than the delivery timeout: no new scrape until what failed is
          // delivered (same records, same ids); the counters keep counting, so the first scrape
          // after it covers the whole gap
          skippedRounds.increment();
          LOG.warn(
              "scrape round skipped: {} records wait for Kafka ({})",
              outbox.pending(),
              outbox.lastError());
          if (stopped.await(config.interval().toMillis(), TimeUnit.MILLISECONDS)) {
            break;
          }
          next = clock.millis();
          continue;
        }
        long roundEvents = 0;
        boolean advanced = false;
        List<ProducerRecord<String, byte[]>> contextRecords = new ArrayList<>();
        List<ProducerRecord<String, byte[]>> eventRecords = new ArrayList<>();
        for (URI url : config.urls()) {
          Instant at = clock.instant();
          List<PromSample> samples;
          scrapes.increment();
          try {
            samples = PromTextParser.parse(fetch(url));
          } catch (IOException | RuntimeException e) {
            failed++;
            failedScrapes.increment();
            LOG.warn("scrape url={} failed: {}", url, e.toString());
            continue;
          }
          for (DecodeEvent e : deriver.onScrape(url.toString(), at, samples)) {
            var stamp = contexts.stamp(e.getDeploymentId(), e.getEventTime());
            e.put("runContextId", stamp.contextId());
            for (RunContext rc : stamp.publish()) {
              contextRecords.add(
                  new ProducerRecord<>(
                      ctxTopic,
                      e.getDeploymentId(),
                      contextSerde.serializer().serialize(ctxTopic, rc)));
            }
            eventRecords.add(
                new ProducerRecord<>(
                    topic, e.getDeploymentId(), serde.serializer().serialize(topic, e)));
            roundEvents++;
            advanced |= advanced(e);
          }
        }
        // the round's run contexts are on the broker before its events are sent
        outbox.deliver(contextRecords);
        outbox.deliver(eventRecords);
        rounds++;
        events += roundEvents;
        if (config.maxScrapes() > 0 && rounds >= config.maxScrapes()) {
          break;
        }
        if (config.exitWhenIdle() && rounds > 1 && !advanced) {
          break;
        }
        next += config.interval().toMillis();
        long wait = Math.max(0, next - clock.millis());
        if (stopped.await(wait, TimeUnit.MILLISECONDS)) {
          break;
        }
      }
      if (outbox.pending() > 0) {
        LOG.warn(
            "scraping stopped with {} records not delivered ({})",
            outbox.pending(),
            outbox.lastError());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Result r = new Result(rounds, events, failed);
    LOG.info("scraping stopped: {}", r);
    return r;
  }

  private static boolean advanced(DecodeEvent e) {
    return (e.getCycles() != null && e.getCycles() > 0)
        || (e.getDecodePasses() != null && e.getDecodePasses() > 0);
  }

  private String fetch(URI url) throws IOException, InterruptedException {
    HttpRequest req =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(10))
            .header("Accept", "text/plain;version=0.0.4")
            .GET()
            .build();
    HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
    if (resp.statusCode() != 200) {
      throw new IOException("HTTP " + resp.statusCode() + " from " + url);
    }
    return resp.body();
  }

  /** Delivery to Kafka failed for good (not retriable): the process should exit non-zero. */
  public static final class ScrapeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ScrapeException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
