import java.nio.charset.StandardCharsets;
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
 * The Java Kafka client alone with the shipper's output, for `./specwatch bench ingest`: reads the
 * records of FROM (the decode events the cold shipper made of the measured file: Avro in the
 * Confluent wire format, ~400 bytes each), then sends their values to TO with the shipper's
 * producer settings and key, PASSES times in one JVM, and prints each pass's rate as lines of the
 * measured file per second (LINES lines gave those records); the last pass is the warm figure.
 * What the Kafka side of the shipper's work costs (its records are larger and fewer than the raw
 * lines), without parsing, normalising or encoding. Run with Java's source launcher:
 * {@code java -cp "<kafka>/libs/*" EventSend.java BOOTSTRAP FROM TO PASSES LINES}.
 */
public class EventSend {
  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      throw new IllegalArgumentException("usage: EventSend BOOTSTRAP FROM TO PASSES LINES");
    }
    String from = args[1];
    String to = args[2];
    int passes = Integer.parseInt(args[3]);
    long lines = Long.parseLong(args[4]);
    List<byte[]> values = new ArrayList<>();
    Properties c = new Properties();
    c.put("bootstrap.servers", args[0]);
    c.put("max.poll.records", "10000");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      consumer.partitionsFor(from).forEach(p -> partitions.add(new TopicPartition(from, p.partition())));
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
          producer.send(new ProducerRecord<>(to, key, value), onAck);
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
}
