package io.specwatch.ingest.tail;

import io.specwatch.ingest.context.RunContextFileWatcher;
import io.specwatch.ingest.context.RunContextTracker;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.OutcomeRecords;
import io.specwatch.ingest.ship.ShipException;
import io.specwatch.ingest.ship.ShipObserver;
import io.specwatch.ingest.ship.TopicCheck;
import io.specwatch.schemas.RunContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tails every file matching the globs into Kafka with at-least-once delivery. Checkpoints are
 * written only up to the highest offset below which every record was acknowledged, so a crash
 * re-ships lines (with the same event ids) but never loses one. At most {@code maxInFlightLines}
 * lines are held between read and acknowledgement: while Kafka is down reading stops; nothing is
 * dropped.
 */
public final class Tailer implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(Tailer.class);
  private static final Duration TOPIC_CHECK_TIMEOUT = Duration.ofSeconds(10);

  private final TailConfig config;
  private final Clock clock;
  private final Semaphore slots;
  private final Map<String, Source> sources = new LinkedHashMap<>();
  private final CountDownLatch finished = new CountDownLatch(1);

  /** What ended {@link #run()} by an exception; set before {@link #finished} is counted down. */
  private volatile Throwable failure;

  private final StopSignal signal = new StopSignal();
  // this pass of the loop left a source unread because no in-flight slot was free
  private boolean blocked;
  private volatile long bytesBehind;
  private final RunContextTracker contexts;
  private final RunContextFileWatcher contextFile;
  private final ShipObserver observer;
  private final Delivery delivery;
  private final CheckpointWriter checkpoints;

  public Tailer(TailConfig config) {
    this(config, Clock.systemUTC());
  }

  public Tailer(TailConfig config, Clock clock) {
    this(config, clock, ShipObserver.NONE);
  }

  /**
   * A tailer reporting to {@code observer}.
   *
   * @throws IllegalArgumentException when the run-context file cannot be read (fail fast)
   */
  public Tailer(TailConfig config, Clock clock, ShipObserver observer) {
    this.config = config;
    this.clock = clock;
    CheckpointStore store = new CheckpointStore(config.checkpointDir());
    this.slots = new Semaphore(config.maxInFlightLines());
    this.observer = observer;
    this.delivery = new Delivery(signal, observer);
    this.contexts = config.ship().runContext().newTracker(config.ship().deploymentId());
    this.contexts.restoreLogLayers(RunContextState.load(config.checkpointDir()));
    this.checkpoints = new CheckpointWriter(config.checkpointDir(), store, contexts, signal);
    Path file = config.ship().runContext().file();
    this.contextFile = file == null ? null : new RunContextFileWatcher(file, contexts);
  }

  /** Bytes of the tailed files not read yet, as of the last poll. */
  public long bytesBehind() {
    return bytesBehind;
  }

  /** Clean stop: stop reading, flush, write final checkpoints; {@link #run()} then returns. */
  public void stop() {
    signal.stop();
  }

  /**
   * Test hook simulating kill -9: stop at once, drop unsent records, write no further checkpoint.
   */
  public void crash() {
    signal.crash();
  }

  /** Lines read but not yet acknowledged (bounded by maxInFlightLines). */
  public int inFlightLines() {
    return config.maxInFlightLines() - slots.availablePermits();
  }

  /** Waits until {@link #run()} has returned. */
  public boolean awaitFinished(Duration timeout) throws InterruptedException {
    return finished.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * What ended {@link #run()} by an exception, or null. Set before {@link #awaitFinished} returns,
   * so a shutdown hook that waited for the run reads the outcome itself, not a flag that the thread
   * which called run() sets only after catching the exception.
   */
  public Throwable failure() {
    return failure;
  }

  /**
   * Tails until stopped (or idle with exitWhenIdle).
   *
   * @throws ShipException when Kafka rejected a record for good or a file/checkpoint failed
   */
  @Override
  public void run() {
    try {
      tail();
    } catch (RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      finished.countDown();
    }
  }

  private void tail() {
    LOG.info(
        "tailing globs={} checkpointDir={} maxInFlightLines={} {}",
        config.globs(),
        config.checkpointDir(),
        config.maxInFlightLines(),
        config.ship());
    var ship = config.ship();
    Producer<String, byte[]> producer = null;
    try (OutcomeRecords records = new OutcomeRecords(ship)) {
      // fails fast when a topic is missing and the broker does not create topics; a broker that
      // cannot be reached only delays the start by the check's timeout
      TopicCheck.requireTopics(
          config.producerProperties(), TopicCheck.topics(ship), TOPIC_CHECK_TIMEOUT);
      producer =
          new KafkaProducer<>(
              config.producerProperties(), new StringSerializer(), new ByteArraySerializer());
      loop(producer, records);
      if (signal.crashed()) {
        producer.close(Duration.ZERO);
        producer = null;
        return;
      }
      producer.close(config.shutdownTimeout());
      producer = null;
      checkpoints.saveAll(sources.values());
      if (delivery.abandoned() > 0) {
        LOG.warn(
            "{} records were not acknowledged within the shutdown timeout; the checkpoints stop"
                + " before them and they are read again at the next start",
            delivery.abandoned());
      }
      delivery.throwIfFatal();
      LOG.info("tailing stopped cleanly, sources={}", sources.size());
    } catch (IOException e) {
      throw new ShipException("tailing failed: " + e, e);
    } catch (UncheckedIOException e) {
      throw new ShipException("tailing failed: " + e.getMessage(), e);
    } finally {
      if (producer != null) {
        producer.close(Duration.ZERO);
      }
      for (Source s : sources.values()) {
        try {
          s.file.close();
        } catch (IOException e) {
          LOG.debug("close source={} failed: {}", s.file.source(), e.toString());
        }
      }
    }
  }

  private void loop(Producer<String, byte[]> producer, OutcomeRecords records) throws IOException {
    publishPendingContexts(producer, records);
    while (!signal.stopping() && !delivery.failed()) {
      delivery.resendFailed(producer);
      if (contextFile != null && contextFile.poll()) {
        publishPendingContexts(producer, records);
      }
      discover();
      int read = 0;
      long behind = 0;
      blocked = false;
      for (Source s : sources.values()) {
        read += pump(s, producer, records);
        behind += s.file.bytesBehind();
        if (signal.stopping()) {
          break;
        }
      }
      bytesBehind = behind;
      checkpoints.saveAll(sources.values());
      if (read == 0) {
        // not after a pass that backpressure cut short: acks arriving after that source's turn
        // make every tracker idle while its unread lines are still in the file
        if (config.exitWhenIdle() && !blocked && idle()) {
          LOG.info("all sources idle, exiting");
          return;
        }
        signal.sleep(config.pollInterval());
      }
    }
  }

  private boolean idle() {
    for (Source s : sources.values()) {
      if (s.tracker != null && !s.tracker.idle()) {
        return false;
      }
      if (s.file.rotationPending() != TailedFile.Rotation.NONE) {
        return false;
      }
    }
    return true;
  }

  /** Reads and sends what one source has; returns lines read. */
  private int pump(Source s, Producer<String, byte[]> producer, OutcomeRecords records)
      throws IOException {
    TailedFile f = s.file;
    if (!f.isOpen() && f.rotationPending() == TailedFile.Rotation.NONE) {
      if (!f.open(Optional.empty())) {
        return 0;
      }
      newGeneration(s);
    }
    if (f.rotationPending() != TailedFile.Rotation.NONE) {
      // switch only once every record of the old file is acknowledged, so a checkpoint never
      // names the new file while old lines are still in flight
      if (!s.tracker.idle()) {
        return 0;
      }
      checkpoints.save(s);
      if (!f.switchFile()) {
        return 0;
      }
      newGeneration(s);
      checkpoints.save(s);
    }
    int budget = slots.availablePermits();
    if (budget == 0) {
      blocked = true;
      return 0; // backpressure: Kafka has not acknowledged enough yet
    }
    List<TailedFile.ReadLine> lines = f.poll(budget);
    slots.acquireUninterruptibly(lines.size());
    // after a retriable failure (Kafka away), lines already read queue up for the resend round
    // instead of blocking max.block.ms each
    boolean kafkaAway = delivery.resendsPending();
    for (TailedFile.ReadLine rl : lines) {
      AckTracker.Entry entry = s.tracker.add(rl.endOffset(), rl.line().lineNumber());
      // SGLang lines' events written straight to bytes once the hand encoder passed its check
      IngestOutcome outcome =
          records.preEncodedReady()
              ? s.ingestor.ingestWritingAhead(rl.line())
              : s.ingestor.ingest(rl.line());
      checkpoints.lineRead(s.tracker, rl.endOffset());
      observer.line(rl.line(), rl.endOffset(), outcome);
      List<ProducerRecord<String, byte[]>> out = records.toRecords(outcome, s.file.source());
      if (out.isEmpty()) {
        s.tracker.done(entry);
      } else {
        // the line is done when every record of it is acknowledged (run context first)
        AtomicInteger left = new AtomicInteger(out.size());
        AckTracker tracker = s.tracker;
        Runnable acked =
            () -> {
              if (left.decrementAndGet() == 0) {
                tracker.done(entry);
              }
            };
        for (ProducerRecord<String, byte[]> record : out) {
          if (kafkaAway) {
            delivery.queueResend(record, acked);
          } else {
            delivery.send(producer, record, acked);
            kafkaAway = delivery.resendsPending();
          }
        }
      }
    }
    return lines.size();
  }

  /** Publishes changed run contexts (at start, after the run-context file changed). */
  private void publishPendingContexts(Producer<String, byte[]> producer, OutcomeRecords records) {
    List<RunContext> pending = contexts.pending(clock.instant());
    for (RunContext rc : pending) {
      delivery.send(producer, records.context(rc), () -> {});
    }
    observer.runContexts(pending.size());
  }

  private void newGeneration(Source s) {
    TailedFile f = s.file;
    s.genIdentity = f.identity();
    SourceContext ctx =
        new SourceContext(
            config.ship().deploymentId(),
            config.ship().host(),
            f.source(),
            f.identity().fingerprint());
    s.ingestor =
        new LineIngestor(
            ctx, config.ship().normalise(), ParserRegistry.defaults(), clock, contexts);
    s.tracker = new AckTracker(f.readPos(), f.lineNumber(), slots::release);
    LOG.info("source={} reading file={} from offset={}", f.source(), f.identity(), f.readPos());
  }

  private void discover() throws IOException {
    for (String glob : config.globs()) {
      for (Path p : Globs.expand(glob)) {
        String source = p.toAbsolutePath().normalize().toString();
        if (sources.containsKey(source)) {
          continue;
        }
        Source s = new Source(new TailedFile(p, config.ship().maxLineBytes()));
        sources.put(source, s);
        if (s.file.open(checkpoints.load(source))) {
          newGeneration(s);
        }
      }
    }
  }
}
