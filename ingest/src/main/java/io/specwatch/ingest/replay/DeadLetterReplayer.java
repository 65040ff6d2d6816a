package io.specwatch.ingest.replay;

import io.specwatch.ingest.context.RunContextTracker;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.OutcomeRecords;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.SourceLine;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.serde.AvroSerde;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays the ingest dead letters of the dead-letter topic after a parser or configuration fix.
 *
 * <p>Reads every partition of the dead-letter topic from the chosen start (the group's committed
 * position, the beginning, or the first record at or after a time) up to the end offsets seen at
 * start, so a run terminates and never reads its own output. Each {@code ingest.parse} dead letter
 * is re-ingested as its original line (same source, host, source identity, byte offset and line
 * number, from the dead letter's fields and context) with the given parsers and normalisation: what
 * now parses is published to the decode-events / request topics with the same deterministic event
 * id the shipper would have given it, so a replay repeated or overlapping is idempotent downstream
 * (streams dedups by event id; ClickHouse tables are keyed by it). What still fails is counted (and
 * re-dead-lettered with {@code replayOf} context when asked); the original dead letter stays in the
 * topic, so nothing is lost. Dead letters of other stages are counted and left alone. The group's
 * offsets are committed after the producer acknowledged every record up to them (at-least-once,
 * idempotent by event id).
 */
public final class DeadLetterReplayer {

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetterReplayer.class);

  /** Where a replay starts. */
  public sealed interface Start permits Committed, Beginning, Since {}

  /** The group's committed position (earliest when it has none). */
  public record Committed() implements Start {}

  /** Every dead letter in the topic. */
  public record Beginning() implements Start {}

  /** The first dead letter whose record timestamp is at or after {@code time}. */
  public record Since(Instant time) implements Start {
    public Since {
      Objects.requireNonNull(time, "since");
    }
  }

  /** Counts of one replay. */
  public record Result(
      long read,
      long replayed,
      long events,
      long requests,
      long stillFailing,
      long otherStage,
      long nothingToPublish) {}

  private final ShipConfig config;
  private final String groupId;
  private final ParserRegistry parsers;
  private final boolean deadLetterAgain;
  private final Clock clock;

  /**
   * @param config topics, registry and normalisation (deployment and host are not used: each dead
   *     letter carries its own)
   * @param groupId consumer group whose offsets record the replay's progress
   * @param parsers the current parsers
   * @param deadLetterAgain publish what still fails as a new dead letter (else only count it)
   */
  public DeadLetterReplayer(
      ShipConfig config,
      String groupId,
      ParserRegistry parsers,
      boolean deadLetterAgain,
      Clock clock) {
    this.config = Objects.requireNonNull(config, "config");
    if (groupId == null || groupId.isBlank()) {
      throw new IllegalArgumentException("setting 'group-id' is required");
    }
    this.groupId = groupId;
    this.parsers = Objects.requireNonNull(parsers, "parsers");
    this.deadLetterAgain = deadLetterAgain;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Replays from {@code start} to the end offsets at start; returns the counts. */
  public Result replay(Start start) {
    long read = 0;
    long replayed = 0;
    long events = 0;
    long requests = 0;
    long still = 0;
    long other = 0;
    long nothing = 0;
    try (AvroSerde<DeadLetter> serde =
            AvroSerde.forClass(DeadLetter.class, config.serdeConfig(), false);
        OutcomeRecords records = new OutcomeRecords(config);
        KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(
                consumerProperties(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Producer<String, byte[]> producer =
            new KafkaProducer<>(
                config.producerProperties(), new StringSerializer(), new ByteArraySerializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(config.dlqTopic(), Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      if (partitions.isEmpty()) {
        throw new IllegalArgumentException(
            "setting 'dlq-topic': topic '" + config.dlqTopic() + "' does not exist");
      }
      consumer.assign(partitions);
      seek(consumer, partitions, start);
      Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
      LOG.info(
          "replaying dead letters topic={} group={} start={} end={}",
          config.dlqTopic(),
          groupId,
          start,
          end);
      while (!done(consumer, end)) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(500))) {
          Long stop = end.get(new TopicPartition(rec.topic(), rec.partition()));
          if (stop == null || rec.offset() >= stop) {
            continue;
          }
          read++;
          DeadLetter dl = serde.deserializer().deserialize(rec.topic(), rec.value());
          if (!LineIngestor.STAGE.equals(dl.getStage())) {
            other++;
            continue;
          }
          IngestOutcome outcome = reingest(dl);
          boolean published = false;
          for (IngestOutcome part : outcome.parts()) {
            if (part instanceof IngestOutcome.Dead dead) {
              still++;
              if (deadLetterAgain) {
                DeadLetter again = dead.deadLetter();
                Map<String, String> ctx = new HashMap<>(again.getContext());
                ctx.put("replayOf", rec.topic() + "-" + rec.partition() + "@" + rec.offset());
                again.put("context", ctx);
                sent.add(producer.send(records.toRecord(dead, dl.getSource())));
              }
              continue;
            }
            ProducerRecord<String, byte[]> out = records.toRecord(part, dl.getSource());
            if (out == null) {
              continue;
            }
            if (part instanceof IngestOutcome.Event) {
              events++;
            } else if (part instanceof IngestOutcome.Request) {
              requests++;
            }
            published = true;
            sent.add(producer.send(out));
          }
          if (published) {
            replayed++;
          } else if (outcome.parts().stream().noneMatch(p -> p instanceof IngestOutcome.Dead)) {
            nothing++;
          }
        }
        producer.flush();
        for (Future<RecordMetadata> f : sent) {
          f.get();
        }
        Map<TopicPartition, OffsetAndMetadata> progress = new HashMap<>();
        for (TopicPartition tp : partitions) {
          progress.put(tp, new OffsetAndMetadata(Math.min(consumer.position(tp), end.get(tp))));
        }
        consumer.commitSync(progress);
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("delivery of a replayed record failed: " + e.getCause(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while replaying", e);
    }
    Result r = new Result(read, replayed, events, requests, still, other, nothing);
    LOG.info("replayed dead letters topic={} result={}", config.dlqTopic(), r);
    return r;
  }

  /** The dead letter's line through the current parsers, with its original identity. */
  IngestOutcome reingest(DeadLetter dl) {
    Map<String, String> ctx = dl.getContext();
    String deployment = ctx.getOrDefault("deploymentId", config.deploymentId());
    String host = dl.getHost() != null ? dl.getHost() : config.host();
    SourceContext source =
        new SourceContext(deployment, host, dl.getSource(), ctx.getOrDefault("sourceIdentity", ""));
    ByteBuffer buf = dl.getRaw().duplicate();
    byte[] bytes = new byte[buf.remaining()];
    buf.get(bytes);
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    SourceLine line =
        new SourceLine(
            dl.getLineNumber() == null ? 0 : dl.getLineNumber(),
            dl.getOffset() == null ? 0 : dl.getOffset(),
            bytes,
            text);
    // one ingestor per line: dead letters are not adjacent lines, so no interval is derived
    return new LineIngestor(
            source, config.normalise(), parsers, clock, new RunContextTracker(deployment))
        .ingest(line);
  }

  private Properties consumerProperties() {
    Properties p = new Properties();
    p.putAll(config.producerOverrides());
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrap());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.keySet().removeIf(k -> k.toString().startsWith("producer.") || isProducerOnly(k.toString()));
    return p;
  }

  private static boolean isProducerOnly(String key) {
    return key.equals("acks")
        || key.equals("linger.ms")
        || key.equals("batch.size")
        || key.equals("enable.idempotence")
        || key.equals("delivery.timeout.ms")
        || key.equals("compression.type");
  }

  private void seek(
      KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions, Start start) {
    if (start instanceof Beginning) {
      consumer.seekToBeginning(partitions);
    } else if (start instanceof Since since) {
      Map<TopicPartition, Long> query = new HashMap<>();
      partitions.forEach(tp -> query.put(tp, since.time().toEpochMilli()));
      Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      for (TopicPartition tp : partitions) {
        OffsetAndTimestamp o = found.get(tp);
        consumer.seek(tp, o == null ? ends.get(tp) : o.offset());
      }
    } else {
      Map<TopicPartition, OffsetAndMetadata> committed =
          consumer.committed(new HashSet<>(partitions));
      List<TopicPartition> none = new ArrayList<>();
      for (TopicPartition tp : partitions) {
        OffsetAndMetadata c = committed.get(tp);
        if (c == null) {
          none.add(tp);
        } else {
          consumer.seek(tp, c.offset());
        }
      }
      if (!none.isEmpty()) { // an empty collection would mean every assigned partition
        consumer.seekToBeginning(none);
      }
    }
  }

  private static boolean done(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (consumer.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }
}
