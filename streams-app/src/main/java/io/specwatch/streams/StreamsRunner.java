package io.specwatch.streams;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.specwatch.runtime.Readiness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the topology in a KafkaStreams instance until stopped, fatal or idle.
 *
 * <p>Java API (tests, e2e): {@code try (var r = StreamsRunner.start(config)) { ... }}. CLI: {@link
 * Main} calls {@link #awaitExit}, which returns the process exit code.
 */
public final class StreamsRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StreamsRunner.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration SUMMARY_EVERY = Duration.ofSeconds(30);

  /** How often Kafka Streams metrics created after the start (tasks, stores) are bound. */
  static final Duration METRICS_REFRESH = Duration.ofSeconds(5);

  private final KafkaStreams streams;
  private final Readiness readiness;
  private final ScheduledExecutorService metricsRefresh;
  private final KafkaStreamsMetrics streamsMetrics;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch fatal = new CountDownLatch(1);

  private StreamsRunner(
      Topology topology, StreamsAppConfig config, Readiness readiness, MeterRegistry registry) {
    this.readiness = readiness;
    this.streams = new KafkaStreams(topology, config.kafkaProperties());
    streams.setUncaughtExceptionHandler(
        e -> {
          LOG.error("stream thread failed, shutting the client down", e);
          readiness.fatal("stream thread failed: " + e);
          return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
    streams.setStateListener(
        (next, previous) -> {
          LOG.info("streams state {} -> {}", previous, next);
          onState(next);
        });
    this.metricsRefresh =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "specwatch-streams-metrics");
              t.setDaemon(true);
              return t;
            });
    this.streamsMetrics =
        new KafkaStreamsMetrics(streams, List.of(), metricsRefresh, METRICS_REFRESH);
    streamsMetrics.bindTo(registry);
  }

  private void onState(KafkaStreams.State next) {
    switch (next) {
      case RUNNING -> readiness.ready();
      case ERROR -> {
        readiness.fatal("streams state ERROR");
        fatal.countDown();
      }
      default -> readiness.notReady("streams state " + next);
    }
  }

  /** Builds the topology of {@code config} and starts it (readiness and meters not exported). */
  public static StreamsRunner start(StreamsAppConfig config) {
    return start(config, new Readiness(), new SimpleMeterRegistry());
  }

  /**
   * Builds the topology of {@code config} and starts it, reporting to {@code readiness} (ready
   * while RUNNING, not live after ERROR) and binding the Kafka Streams metrics (e.g. {@code
   * kafka_stream_task_dropped_records_total}) to {@code registry}.
   */
  public static StreamsRunner start(
      StreamsAppConfig config, Readiness readiness, MeterRegistry registry) {
    LOG.info("starting streams app: {}", config.describe());
    Topology topology = TopologyFactory.build(config.topologyInputs());
    LOG.debug("topology:\n{}", topology.describe());
    Properties props = config.kafkaProperties();
    // a task directory a crash left behind would stop KafkaStreams.start() or be wiped by it anyway
    LocalStateRepair.repair(
        Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG)),
        props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG),
        !StreamsConfig.AT_LEAST_ONCE.equals(
            props.getProperty(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)));
    StreamsRunner runner = new StreamsRunner(topology, config, readiness, registry);
    runner.streams.start();
    return runner;
  }

  /** Current KafkaStreams state. */
  public KafkaStreams.State state() {
    return streams.state();
  }

  /** Current metric summary (consumed, late dropped, non-speculative skipped). */
  public StreamsMetricsSummary metrics() {
    return StreamsMetricsSummary.of(streams.metrics());
  }

  /** Asks {@link #awaitExit} to return (e.g. from a SIGTERM hook). */
  public void requestStop() {
    stopRequested.countDown();
  }

  /**
   * Blocks until a stop is requested (0), the app fails (1) or, with {@code exitWhenIdle}, no
   * record was consumed for that long while running and every consumed record was processed (0).
   * Closes the app, which commits the last transaction, before returning.
   */
  public int awaitExit(Optional<Duration> exitWhenIdle) throws InterruptedException {
    long lastConsumed = -1;
    long lastProcessed = -1;
    long lastProgressNanos = System.nanoTime();
    long lastSummaryNanos = System.nanoTime();
    int code = 0;
    while (!stopRequested.await(500, TimeUnit.MILLISECONDS)) {
      if (fatal.getCount() == 0 || streams.state() == KafkaStreams.State.ERROR) {
        LOG.error("streams app is in state {}: exiting non-zero", streams.state());
        code = 1;
        break;
      }
      StreamsMetricsSummary summary = metrics();
      long now = System.nanoTime();
      if (summary.consumed() != lastConsumed
          || summary.processed() != lastProcessed
          || summary.processed() < summary.consumed()
          || streams.state() != KafkaStreams.State.RUNNING) {
        lastConsumed = summary.consumed();
        lastProcessed = summary.processed();
        lastProgressNanos = now;
      }
      if (now - lastSummaryNanos >= SUMMARY_EVERY.toNanos()) {
        LOG.info("metrics {}", summary);
        lastSummaryNanos = now;
      }
      if (exitWhenIdle.isPresent() && now - lastProgressNanos >= exitWhenIdle.get().toNanos()) {
        LOG.info("no input for {}: exiting", exitWhenIdle.get());
        break;
      }
    }
    LOG.info("final metrics {}", metrics());
    close();
    return code;
  }

  /** Closes KafkaStreams (commits the last transaction), idempotent. */
  @Override
  public void close() {
    try {
      if (!streams.close(CLOSE_TIMEOUT)) {
        LOG.warn("streams did not close within {}", CLOSE_TIMEOUT);
      }
    } finally {
      streamsMetrics.close();
      metricsRefresh.shutdownNow();
    }
  }
}
