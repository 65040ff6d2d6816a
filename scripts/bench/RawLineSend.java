import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Java Kafka client alone, for `./specwatch bench ingest`: sends a set of records (one key, no
 * parsing) with the shipper's producer settings, PASSES times in one JVM, and prints each pass's
 * rate in lines of the measured file per second; the last pass is the warm figure. The records are
 * either
 *
 * <ul>
 *   <li>a file's lines, one record each ({@code SOURCE} = the file): what the client costs for the
 *       raw lines kcat sends, or
 *   <li>the records of a topic ({@code SOURCE} = {@code topic:NAME}; since 2026-12-04, session 28):
 *       the decode events the cold shipper made of the measured file (Avro in the Confluent wire
 *       format, ~400 bytes each, fewer than the lines), sent again as they are; LINES (the lines
 *       that gave them) scales the rate. What the Kafka side of the shipper's output costs, client
 *       and broker, without parsing, normalising or encoding.
 * </ul>
 *
 * <p>Run with Java's source launcher: {@code java -cp "<kafka>/libs/*" RawLineSend.java BOOTSTRAP
 * TOPIC SOURCE PASSES [LINES]}.
 */
public class RawLineSend {
  public static void main(String[] args) throws Exception {
    if (args.length != 4 && args.length != 5) {
      throw new IllegalArgumentException(
          "usage: RawLineSend BOOTSTRAP TOPIC FILE|topic:NAME PASSES [LINES]");
    }
    String topic = args[1];
    int passes = Integer.parseInt(args[3]);
    List<byte[]> values =
        args[2].startsWith("topic:") ? records(args[0], args[2].substring(6)) : lines(args[2]);
    long lines = args.length == 5 ? Long.parseLong(args[4]) : values.size();
    Properties p = new Properties();
    p.put("bootstrap.servers", args[0]);
    p.put("acks", "all");
    p.put("enable.idempotence", "true");
    p.put("linger.ms", "20");
    p.put("batch.size", "1048576");
    p.put("compression.type", "none");
    AtomicReference<Exception> failed = new AtomicReference<>();
    Callback onAck =
        (meta, e) -> {
          if (e != null) {
            failed.compareAndSet(null, e);
          }
        };
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      byte[] key = "bench".getBytes(StandardCharsets.UTF_8);
      for (int pass = 1; pass <= passes; pass++) {
        long start = System.nanoTime();
        for (byte[] value : values) {
          producer.send(new ProducerRecord<>(topic, key, value), onAck);
        }
        producer.flush();
        if (failed.get() != null) {
          throw failed.get();
        }
        double s = (System.nanoTime() - start) / 1e9;
        System.out.printf(
            "pass %d: %d records %.3f s %.0f lines/s%n", pass, values.size(), s, lines / s);
      }
    }
  }

  private static List<byte[]> lines(String file) throws Exception {
    List<byte[]> lines = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(file))) {
      lines.add(line.getBytes(StandardCharsets.UTF_8));
    }
    return lines;
  }

  /** Every record value of the topic, partition by partition. */
  private static List<byte[]> records(String bootstrap, String from) {
    List<byte[]> values = new ArrayList<>();
    Properties c = new Properties();
    c.put("bootstrap.servers", bootstrap);
    c.put("max.poll.records", "10000");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      consumer.partitionsFor(from).forEach(i -> partitions.add(new TopicPartition(from, i.partition())));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long total = end.values().stream().mapToLong(Long::longValue).sum();
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (values.size() < total) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("read " + values.size() + " of " + total + " records of " + from);
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
          values.add(r.value());
        }
      }
    }
    if (values.isEmpty()) {
      throw new IllegalStateException(from + " holds no records");
    }
    return values;
  }
}
