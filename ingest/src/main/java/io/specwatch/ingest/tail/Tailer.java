package io.specwatch.ingest.tail;

import io.specwatch.ingest.context.ContextFields;
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
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
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
  private static final Duration SEND_RETRY_BACKOFF = Duration.ofMillis(500);
  private static final Duration TOPIC_CHECK_TIMEOUT = Duration.ofSeconds(10);

  /** The open file generation of one source: its ingestor (event ids) and ack tracker. */
  private static final class Source {
    final TailedFile file;
    FileIdentity genIdentity;
    LineIngestor ingestor;
    AckTracker tracker;
    Checkpoint lastSaved;

    Source(TailedFile file) {
      this.file = file;
    }
  }

  private final TailConfig config;
  private final Clock clock;
  private final CheckpointStore store;
  private final Semaphore slots;
  private final Map<String, Source> sources = new LinkedHashMap<>();
  private final AtomicReference<Exception> fatal = new AtomicReference<>();
  private final CountDownLatch finished = new CountDownLatch(1);

  /** What ended {@link #run()} by an exception; set before {@link #finished} is counted down. */
  private volatile Throwable failure;

  private final java.util.concurrent.atomic.AtomicLong abandoned =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile boolean stop;
  // this pass of the loop left a source unread because no in-flight slot was free
  private boolean blocked;
  private volatile boolean crash;
  private volatile long bytesBehind;
  private final RunContextTracker contexts;
  private final RunContextFileWatcher contextFile;
  private final ShipObserver observer;
  // the log layers after each line that changed them, oldest first, until the checkpoint of that
  // line's file passed it (loop thread only)
  private final ArrayDeque<LayersAfter> unsavedLayers = new ArrayDeque<>();
  private long readLogVersion;

  /** The log layers as they stood after the line ending at endOffset of tracker's file. */
  private record LayersAfter(
      AckTracker tracker, long endOffset, Map<String, ContextFields> layers) {

    boolean committed() {
      return tracker.committed().offset() >= endOffset;
    }
  }

  /** A record whose delivery failed with a retriable error, to be sent again by the loop. */
  private record Resend(ProducerRecord<String, byte[]> record, Runnable acked) {}

  private final Queue<Resend> resends = new ConcurrentLinkedQueue<>();
  private final AtomicReference<Exception> lastRetriable = new AtomicReference<>();

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
    this.store = new CheckpointStore(config.checkpointDir());
    this.slots = new Semaphore(config.maxInFlightLines());
    this.observer = observer;
    this.contexts = config.ship().runContext().newTracker(config.ship().deploymentId());
    this.contexts.restoreLogLayers(RunContextState.load(config.checkpointDir()));
    this.readLogVersion = contexts.logVersion();
    Path file = config.ship().runContext().file();
    this.contextFile = file == null ? null : new RunContextFileWatcher(file, contexts);
  }

  /** Bytes of the tailed files not read yet, as of the last poll. */
  public long bytesBehind() {
    return bytesBehind;
  }

  /** Clean stop: stop reading, flush, write final checkpoints; {@link #run()} then returns. */
  public void stop() {
    stop = true;
  }

  /**
   * Test hook simulating kill -9: stop at once, drop unsent records, write no further checkpoint.
   */
  public void crash() {
    crash = true;
    stop = true;
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
      if (crash) {
        producer.close(Duration.ZERO);
        producer = null;
        return;
      }
      producer.close(config.shutdownTimeout());
      producer = null;
      saveCheckpoints();
      if (abandoned.get() > 0) {
        LOG.warn(
            "{} records were not acknowledged within the shutdown timeout; the checkpoints stop"
                + " before them and they are read again at the next start",
            abandoned.get());
      }
      throwIfFatal();
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

  private void throwIfFatal() {
    Exception e = fatal.get();
    if (e != null) {
      throw new ShipException("delivery to Kafka failed: " + e, e);
    }
  }

  private void loop(Producer<String, byte[]> producer, OutcomeRecords records) throws IOException {
    publishPendingContexts(producer, records);
    while (!stop && fatal.get() == null) {
      resendFailed(producer);
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
        if (stop) {
          break;
        }
      }
      bytesBehind = behind;
      saveCheckpoints();
      if (read == 0) {
        // not after a pass that backpressure cut short: acks arriving after that source's turn
        // make every tracker idle while its unread lines are still in the file
        if (config.exitWhenIdle() && !blocked && idle()) {
          LOG.info("all sources idle, exiting");
          return;
        }
        sleep(config.pollInterval());
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
      saveCheckpoint(s);
      if (!f.switchFile()) {
        return 0;
      }
      newGeneration(s);
      saveCheckpoint(s);
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
    boolean kafkaAway = !resends.isEmpty();
    for (TailedFile.ReadLine rl : lines) {
      AckTracker.Entry entry = s.tracker.add(rl.endOffset(), rl.line().lineNumber());
      IngestOutcome outcome = s.ingestor.ingest(rl.line());
      long version = contexts.logVersion();
      if (version != readLogVersion) { // rare: the line revealed context fields
        unsavedLayers.addLast(new LayersAfter(s.tracker, rl.endOffset(), contexts.logLayers()));
        readLogVersion = version;
      }
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
            resends.add(new Resend(record, acked));
          } else {
            send(producer, record, acked);
            kafkaAway = !resends.isEmpty();
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
      send(producer, records.context(rc), () -> {});
    }
    observer.runContexts(pending.size());
  }

  private void send(
      Producer<String, byte[]> producer, ProducerRecord<String, byte[]> record, Runnable acked) {
    while (!stop) {
      try {
        producer.send(
            record,
            (meta, e) -> {
              if (e == null) {
                acked.run();
                return;
              }
              observer.kafkaError(e);
              if (stop) {
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
                if (fatal.compareAndSet(null, e) && !crash) {
                  LOG.error("delivery to topic={} failed, stopping", record.topic(), e);
                }
              }
            });
        return;
      } catch (RetriableException e) {
        observer.kafkaError(e);
        LOG.warn("send to topic={} blocked ({}); retrying", record.topic(), e.toString());
        sleep(SEND_RETRY_BACKOFF);
      }
    }
  }

  /** Sends again what failed retriably since the last round (in failure order). */
  private void resendFailed(Producer<String, byte[]> producer) {
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
      if (stop) {
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
      for (Path p : expand(glob)) {
        String source = p.toAbsolutePath().normalize().toString();
        if (sources.containsKey(source)) {
          continue;
        }
        Source s = new Source(new TailedFile(p, config.ship().maxLineBytes()));
        sources.put(source, s);
        if (s.file.open(store.load(source))) {
          newGeneration(s);
        }
      }
    }
  }

  /** Regular files matching a glob; the directory part before the first wildcard is walked. */
  static List<Path> expand(String glob) throws IOException {
    Path absolute = Path.of(glob).toAbsolutePath().normalize();
    Path base = absolute.getRoot();
    int depth = 0;
    boolean wild = false;
    for (Path part : absolute) {
      String name = part.toString();
      if (!wild && !name.matches(".*[*?\\[{].*")) {
        base = base.resolve(name);
      } else {
        wild = true;
        depth =
            name.contains("**")
                ? Integer.MAX_VALUE
                : (depth == Integer.MAX_VALUE ? depth : depth + 1);
      }
    }
    List<Path> out = new ArrayList<>();
    if (!wild) {
      out.add(absolute); // a plain path is tailed even before it exists
      return out;
    }
    if (!Files.isDirectory(base)) {
      return out;
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + absolute);
    try (Stream<Path> walk = Files.walk(base, depth)) {
      walk.filter(Files::isRegularFile).filter(matcher::matches).sorted().forEach(out::add);
    } catch (UncheckedIOException e) {
      LOG.debug("glob={} walk failed: {}", glob, e.toString());
    }
    return out;
  }

  /**
   * The run-context state first, then the checkpoints, and the state only as of lines the
   * checkpoints pass. A checkpoint past a line that revealed a context must never be on disk
   * without that context (a restart would resume after the line and stamp later events with the
   * context from before it), and a context must never be on disk before the checkpoints pass the
   * line that revealed it (a restart would read the lines before it again and stamp them with it).
   * Layers are saved as of the newest change whose line, and every earlier change's line, the
   * checkpoints cover: the acks read here can only advance before the checkpoints below are read.
   */
  private void saveCheckpoints() {
    LayersAfter covered = null;
    while (!unsavedLayers.isEmpty() && unsavedLayers.peekFirst().committed()) {
      covered = unsavedLayers.pollFirst();
    }
    if (!crash && covered != null) {
      RunContextState.save(config.checkpointDir(), covered.layers());
    }
    for (Source s : sources.values()) {
      saveCheckpoint(s);
    }
  }

  private void saveCheckpoint(Source s) {
    if (crash || s.tracker == null) {
      return;
    }
    AckTracker.Committed at = s.tracker.committed();
    Checkpoint cp = new Checkpoint(s.file.source(), s.genIdentity, at.offset(), at.lines());
    if (!cp.equals(s.lastSaved)) {
      store.save(cp);
      s.lastSaved = cp;
    }
  }

  private void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop = true;
    }
  }
}
