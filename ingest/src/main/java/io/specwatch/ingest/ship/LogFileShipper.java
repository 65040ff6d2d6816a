package io.specwatch.ingest.ship;

import io.specwatch.ingest.context.RunContextTracker;
import io.specwatch.ingest.normalise.FileFingerprint;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ships one whole log file: DecodeEvents keyed by deploymentId to the decode-events topic,
 * RequestAcceptances keyed by deploymentId to the request-acceptance topic, DeadLetters keyed by
 * source to the dead-letter topic (see {@link OutcomeRecords}), with an idempotent acks=all
 * producer. {@link #ship} returns after everything is acknowledged; the files one shipper ships
 * share its producer (one connection, and the JIT's compiled code of the sending path stays valid
 * from one file to the next), which {@link #close} closes. Following growing files with checkpoints
 * is {@link io.specwatch.ingest.tail.Tailer}.
 *
 * <p>RunContexts (keyed by deploymentId, run-context topic) are published before the first record
 * they apply to and whenever a line changes a deployment's context, observed at that line's time;
 * the shipper waits for each RunContext's acknowledgement before it sends the records of later
 * lines. Not at start with the wall-clock time, as {@code tail} does: a file shipped now usually
 * holds older lines, and streams-app reads the run-context table in observedAt order with the
 * events, so a context observed "now" would reach the windows of those lines only after all of them
 * (no run context, no baseline). The CLI/file context goes out with the first event or context line
 * instead.
 */
public final class LogFileShipper implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LogFileShipper.class);

  private final ShipConfig config;
  private final Clock clock;
  private final ParserRegistry parsers;
  private final int parseThreads;
  // one per shipper, like tail's: the files of one deployment shipped by one instance share what
  // their lines revealed (a request or profile file must not replace the engine log's context)
  private RunContextTracker contexts;
  private CompletableFuture<Void> topicCheck;
  // one producer and one set of serialisers for every file this shipper ships (as tail keeps one
  // for its whole run): created by the first ship, dropped after a failed one, closed by close()
  private Producer<String, byte[]> producer;
  private OutcomeRecords records;

  /** How long the start-up topic check waits for the broker before it lets shipping start. */
  static final Duration TOPIC_CHECK_TIMEOUT = Duration.ofSeconds(10);

  public LogFileShipper(ShipConfig config) {
    this(config, DEFAULT_PARSE_THREADS);
  }

  /** A shipper whose files are parsed by {@code parseThreads} threads ({@code --parse-threads}). */
  public LogFileShipper(ShipConfig config, int parseThreads) {
    this(config, Clock.systemUTC(), ParserRegistry.defaults(), parseThreads);
  }

  public LogFileShipper(ShipConfig config, Clock clock) {
    this(config, clock, ParserRegistry.defaults());
  }

  /** A shipper with other parsers (tests: a parser version older than the current one). */
  public LogFileShipper(ShipConfig config, Clock clock, ParserRegistry parsers) {
    this(config, clock, parsers, DEFAULT_PARSE_THREADS);
  }

  private LogFileShipper(ShipConfig config, Clock clock, ParserRegistry parsers, int parseThreads) {
    this.parseThreads = requireParseThreads(parseThreads);
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.parsers = Objects.requireNonNull(parsers, "parsers");
  }

  /** {@code n}, if it is a valid parse thread count; else fails naming the setting. */
  public static int requireParseThreads(int n) {
    if (n < 1 || n > MAX_PARSE_THREADS) {
      throw new IllegalArgumentException(
          "setting 'parse-threads' (SPECWATCH_PARSE_THREADS) must be between 1 and "
              + MAX_PARSE_THREADS
              + ", was "
              + n);
    }
    return n;
  }

  /**
   * Ships the file and flushes.
   *
   * @throws ShipException when a record could not be delivered or the file could not be read
   */
  public ShipResult ship(Path file) {
    return ship(file, ShipObserver.NONE);
  }

  /**
   * Ships the file and flushes, telling {@code observer} about every line and Kafka error.
   *
   * @throws ShipException when a record could not be delivered or the file could not be read
   */
  public ShipResult ship(Path file, ShipObserver observer) {
    SourceContext source;
    try {
      source =
          new SourceContext(
              config.deploymentId(),
              config.host(),
              file.toAbsolutePath().normalize().toString(),
              FileFingerprint.of(file));
    } catch (IOException e) {
      throw new ShipException("cannot read " + file, e);
    }
    LOG.info("shipping file={} with {}", source.source(), config);
    if (contexts == null) {
      contexts = config.runContext().newTracker(config.deploymentId());
    }
    if (topicCheck == null) {
      // fails fast when a topic is missing and the broker does not create topics; runs while the
      // producer starts and the first lines are parsed, the sending thread waits for it
      topicCheck =
          CompletableFuture.runAsync(
              () ->
                  TopicCheck.requireTopics(
                      config.producerProperties(), TopicCheck.topics(config), TOPIC_CHECK_TIMEOUT),
              task -> {
                Thread t = new Thread(task, "ship-topic-check");
                t.setDaemon(true);
                t.start();
              });
    }
    CompletableFuture<Void> checked = topicCheck;
    SourceContext src = source;
    LineIngestor ingestor = new LineIngestor(source, config.normalise(), parsers, clock, contexts);
    AtomicReference<Exception> sendError = new AtomicReference<>();
    // one callback for every record of the file (a lambda per send was an allocation per record)
    Callback onAck =
        (meta, e) -> {
          if (e != null) {
            observer.kafkaError(e);
            sendError.compareAndSet(null, e);
          }
        };
    ShipResult.Tally tally = new ShipResult.Tally(ShipResult.empty());
    boolean delivered = false;
    String cpu = "";
    try {
      if (producer == null) {
        records = new OutcomeRecords(config);
        producer =
            new KafkaProducer<>(
                config.producerProperties(), new StringSerializer(), new ByteArraySerializer());
      }
      Producer<String, byte[]> producer = this.producer;
      OutcomeRecords records = this.records;
      // Threads: this one reads lines into batches; parseThreads "ship-parse-N" threads parse
      // the batches, hash their event ids and write the SGLang lines' events to Avro bytes (all
      // stateless, any order); the "ship-send" thread takes the batches in file order, waits until
      // each is parsed, then normalises (per-source state), serialises and produces (an SGLang
      // event written ahead only gets its interval, cycle ms, times and run context added). At most
      // QUEUE_BATCHES batches of BATCH_LINES lines or BATCH_BYTES bytes are in flight (the send
      // queue is bounded; a batch waits in the parse queue only while it is also in the send queue
      // or with the sending thread), so memory stays bounded; order is kept (one send queue, one
      // consumer).
      BlockingQueue<LineBatch> queue = new ArrayBlockingQueue<>(QUEUE_BATCHES);
      BlockingQueue<LineBatch> toParse = new LinkedBlockingQueue<>();
      AtomicReference<Throwable> workerFailure = new AtomicReference<>();
      // CPU time of the shipping threads, each adding its own when it ends (the log line at the end
      // of the file; the bench reads it per pass)
      AtomicLong parseCpuNanos = new AtomicLong();
      AtomicLong sendCpuNanos = new AtomicLong();
      List<Thread> parsing = new ArrayList<>(parseThreads);
      for (int n = 1; n <= parseThreads; n++) {
        Thread t =
            new Thread(
                () -> {
                  // SGLang Decode batch lines (most of a busy SGLang log) are written to Avro
                  // bytes here, and the sending thread only adds what the source's state gives
                  SglangEventWriter sglang = new SglangEventWriter(src, config.normalise());
                  try {
                    for (LineBatch b = toParse.take(); b != LineBatch.END; b = toParse.take()) {
                      b.prepare(parsers, src, sglang, config.normalise().rawFields());
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } finally {
                    parseCpuNanos.addAndGet(threadCpuNanos());
                  }
                },
                "ship-parse-" + n);
        t.setDaemon(true);
        t.start();
        parsing.add(t);
      }
      Thread worker =
          new Thread(
              () -> {
                try {
                  awaitTopicCheck(checked);
                  while (true) {
                    LineBatch batch = queue.take();
                    if (batch.lines == null) {
                      return;
                    }
                    batch.awaitPrepared();
                    // one ingest time per batch: the clock read per line was 2 % of this thread
                    Instant now = clock.instant();
                    for (int i = 0; i < batch.lines.size(); i++) {
                      if (sendError.get() != null) {
                        continue;
                      }
                      SourceLine line = batch.lines.get(i);
                      SglangEventParts pre = batch.sglang != null ? batch.sglang[i] : null;
                      IngestOutcome outcome =
                          pre != null && records.preEncodedReady()
                              ? ingestor.ingest(pre, now)
                              : ingestor.ingest(line, batch.parsed[i], batch.ids[i], now);
                      send(producer, records, source, outcome, onAck);
                      observer.line(line, line.offset() + line.bytes().length + 1, outcome);
                      tally.add(outcome);
                    }
                  }
                } catch (Throwable t) {
                  workerFailure.compareAndSet(null, t);
                  queue.clear(); // unblock the reader; it sees the failure and stops
                } finally {
                  sendCpuNanos.addAndGet(threadCpuNanos());
                }
              },
              "ship-send");
      worker.setDaemon(true);
      worker.start();
      LineBatch[] current = {new LineBatch()};
      boolean ended = false;
      try {
        LogFileReader.forEachLine(
            file,
            config.maxLineBytes(),
            line -> {
              LineBatch b = current[0];
              b.add(line);
              if (b.lines.size() >= LineBatch.BATCH_LINES || b.bytes >= LineBatch.BATCH_BYTES) {
                LineBatch.hand(queue, toParse, b, workerFailure);
                current[0] = new LineBatch();
              }
            });
        LineBatch.hand(queue, toParse, current[0], workerFailure);
        LineBatch.hand(queue, toParse, LineBatch.END, workerFailure);
        ended = true;
      } catch (LineBatch.ShipAborted e) {
        ended = true; // the worker failed and stopped: its failure is thrown below
      } finally {
        if (!ended) {
          // the reader failed (I/O): let the worker finish what it has, then stop it
          try {
            LineBatch.hand(queue, toParse, LineBatch.END, workerFailure);
          } catch (LineBatch.ShipAborted e) {
            // the worker failed too and has stopped
          }
        }
        for (int n = 0; n < parseThreads; n++) {
          toParse.add(LineBatch.END);
        }
        joinQuietly(worker);
        for (Thread t : parsing) {
          joinQuietly(t);
        }
      }
      if (workerFailure.get() instanceof RuntimeException re) {
        throw re;
      }
      if (workerFailure.get() instanceof Error err) {
        throw err;
      }
      if (workerFailure.get() != null) {
        throw new ShipException("shipping " + file + " failed", workerFailure.get());
      }
      producer.flush();
      delivered = sendError.get() == null;
      cpu =
          String.format(
              java.util.Locale.ROOT,
              "send %.3f s, parse %.3f s",
              sendCpuNanos.get() / 1e9,
              parseCpuNanos.get() / 1e9);
    } catch (IOException e) {
      throw new ShipException("cannot read " + file, e);
    } catch (RuntimeException e) {
      throw new ShipException("shipping " + file + " failed: " + e.getMessage(), e);
    } finally {
      if (!delivered) {
        close(); // a producer that failed a delivery is not reused; the next file gets a new one
      }
    }
    if (sendError.get() != null) {
      throw new ShipException(
          "delivery to Kafka failed for " + file + ": " + sendError.get(), sendError.get());
    }
    ShipResult result = tally.result();
    LOG.info("shipped file={} result={} cpu: {}", source.source(), result, cpu);
    return result;
  }

  /**
   * Closes the producer (after it sent what it holds) and the serialisers; ship may reopen them.
   */
  @Override
  public void close() {
    Producer<String, byte[]> p = producer;
    OutcomeRecords r = records;
    producer = null;
    records = null;
    try {
      if (p != null) {
        p.close();
      }
    } finally {
      if (r != null) {
        r.close();
      }
    }
  }

  private static final int QUEUE_BATCHES = 4;

  /**
   * Threads that parse batches and hash their event ids, by default. One since 2026-12-05 (a fixed
   * two before): on two cores shared with the broker, passes alternating between one and two parse
   * threads in one warm JVM shipped as many lines/s (median pass 419 000 against 413 000) for ~10 %
   * less CPU per line (fewer hand-overs between cores; docs/BENCHMARKS-HISTORY.md, Ingest rounds,
   * session 35), and a shipper next to an inference server should use as little CPU as it can. A
   * parse thread does ~1 µs of work per line and the sending thread ~0.9, so on a host with idle
   * cores a second one ({@code --parse-threads}) can only take a replay a little further before the
   * sending thread is the limit.
   */
  public static final int DEFAULT_PARSE_THREADS = 1;

  /** At most this many parse threads. */
  public static final int MAX_PARSE_THREADS = 64;

  /** Waits for the start-up topic check; its failure (a missing topic) is thrown as it was. */
  private static void awaitTopicCheck(CompletableFuture<Void> check) throws InterruptedException {
    try {
      check.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new ShipException("topic check failed: " + e.getCause(), e.getCause());
    }
  }

  /**
   * The calling thread's CPU time in ns (user and system), or 0 where the JVM does not measure it.
   */
  private static long threadCpuNanos() {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long nanos = threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
    return Math.max(nanos, 0);
  }

  private static void joinQuietly(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ShipException("interrupted while shipping", e);
    }
  }

  private void send(
      Producer<String, byte[]> producer,
      OutcomeRecords records,
      SourceContext source,
      IngestOutcome outcome,
      Callback onAck) {
    if (outcome instanceof IngestOutcome.Event || outcome instanceof IngestOutcome.PreEncoded) {
      // nearly every metric line: one record, no list
      producer.send(records.toRecord(outcome, source.source()), onAck);
      return;
    }
    List<ProducerRecord<String, byte[]>> out = records.toRecords(outcome, source.source());
    for (ProducerRecord<String, byte[]> record : out) {
      if (record.topic().equals(config.runContextTopic())) {
        // a new context must reach Kafka before the events stamped with it
        sendAndWait(producer, record);
        continue;
      }
      producer.send(record, onAck);
    }
  }

  private static void sendAndWait(
      Producer<String, byte[]> producer, ProducerRecord<String, byte[]> record) {
    try {
      producer.send(record).get();
    } catch (ExecutionException e) {
      throw new ShipException(
          "delivery of the run context to " + record.topic() + " failed: " + e.getCause(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ShipException("interrupted while publishing the run context", e);
    }
  }
}
