import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Java Kafka client alone, for `./specwatch bench ingest`: sends a file's lines (one record
 * each, one key, no parsing) with the shipper's producer settings, PASSES times in one JVM, and
 * prints each pass's lines/s; the last pass is the warm figure. Run with Java's source launcher:
 * {@code java -cp "<kafka>/libs/*" RawLineSend.java BOOTSTRAP TOPIC FILE PASSES}.
 */
public class RawLineSend {
  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      throw new IllegalArgumentException("usage: RawLineSend BOOTSTRAP TOPIC FILE PASSES");
    }
    String topic = args[1];
    int passes = Integer.parseInt(args[3]);
    List<byte[]> lines = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[2]))) {
      lines.add(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    Properties p = new Properties();
    p.put("bootstrap.servers", args[0]);
    p.put("acks", "all");
    p.put("enable.idempotence", "true");
    p.put("linger.ms", "20");
    p.put("batch.size", "1048576");
    p.put("compression.type", "none");
    AtomicReference<Exception> failed = new AtomicReference<>();
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      byte[] key = "bench".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      for (int pass = 1; pass <= passes; pass++) {
        long start = System.nanoTime();
        for (byte[] line : lines) {
          producer.send(
              new ProducerRecord<>(topic, key, line),
              (meta, e) -> {
                if (e != null) {
                  failed.compareAndSet(null, e);
                }
              });
        }
        producer.flush();
        if (failed.get() != null) {
          throw failed.get();
        }
        double s = (System.nanoTime() - start) / 1e9;
        System.out.printf("pass %d: %d lines %.3f s %.0f lines/s%n", pass, lines.size(), s, lines.size() / s);
      }
    }
  }
}
