package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.AvroSerde;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The floor under {@code bench streams}: a topology that reads the same topic with the app's Kafka
 * Streams settings (exactly_once_v2, commit 1 s) and does nothing with the records, so its rate is
 * what Kafka Streams itself allows on this machine. Run from the test classpath:
 *
 * <pre>
 * StreamsFloorBench BOOTSTRAP REGISTRY TOPIC APP_ID bytes|avro|fast|window-count [WARMUP_EVENTS]
 * </pre>
 *
 * {@code bytes}: values stay byte arrays; {@code avro}: values are decoded as DecodeEvent by Avro's
 * reader; {@code fast}: by the app's own decoder ({@link FastDecodeEventDeserializer}), as the app
 * does; {@code window-count}: the app's decoder and event time, then the DSL's simplest windowed
 * aggregation with the app's window semantics (a count per deployment and one-minute window, 30 s
 * grace, emitted once on close, to an output topic): what any topology that windows per deployment
 * under exactly-once starts from. Prints the line of {@link StreamsBench#await}.
 */
public final class StreamsFloorBench {
  private StreamsFloorBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println(
          "usage: StreamsFloorBench BOOTSTRAP REGISTRY TOPIC APP_ID bytes|avro|fast|window-count [WARMUP_EVENTS]");
      System.exit(2);
    }
    String bootstrap = args[0];
    String topic = args[2];
    String appId = args[3];
    long warmup = args.length > 5 ? Long.parseLong(args[5]) : 0;
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("floor").toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "1000");
    p.put("auto.offset.reset", "earliest");
    StreamsBuilder b = new StreamsBuilder();
    Map<String, String> registry = Map.of("schema.registry.url", args[1]);
    if ("window-count".equals(args[4])) {
      String out = topic + ".floor-count." + appId;
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
        admin
            .createTopics(List.of(new NewTopic(out, Optional.empty(), Optional.empty())))
            .all()
            .get();
      }
      // the DSL's simplest aggregation with the app's window semantics: per deployment, tumbling
      // one-minute event-time windows, 30 s grace, one final count per window (emit on close), its
      // changelog inside the exactly-once transaction
      b.stream(
              topic,
              Consumed.with(Serdes.String(), FastDecodeEventDeserializer.serde(registry))
                  .withTimestampExtractor(new EventTimeExtractor())
                  .withName("floor-source"))
          .groupByKey(Grouped.<String, DecodeEvent>as("floor-group").withKeySerde(Serdes.String()))
          .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), Duration.ofSeconds(30)))
          .emitStrategy(EmitStrategy.onWindowClose())
          .count(
              Named.as("floor-count"),
              Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("floor-count-store")
                  .withKeySerde(Serdes.String())
                  .withValueSerde(Serdes.Long()))
          .toStream(Named.as("floor-rows"))
          .map((w, n) -> KeyValue.pair(w.key(), n), Named.as("floor-unwrap"))
          .to(out, Produced.with(Serdes.String(), Serdes.Long()));
    } else {
      Serde<?> values =
          switch (args[4]) {
            case "avro" -> AvroSerde.forClass(DecodeEvent.class, registry, false);
            case "fast" -> FastDecodeEventDeserializer.serde(registry);
            default -> Serdes.ByteArray();
          };
      b.stream(topic, Consumed.with(Serdes.String(), values).withName("floor-source"))
          .processValues(Nothing::new, Named.as("floor-nothing"));
    }
    try (KafkaStreams streams = new KafkaStreams(b.build(), p)) {
      // a topology that dies must end the bench, not leave await waiting for offsets to move
      streams.setStateListener(
          (now, before) -> {
            if (now == KafkaStreams.State.ERROR) {
              System.err.println("StreamsFloorBench: the topology failed (state ERROR)");
              System.exit(1);
            }
          });
      streams.start();
      StreamsBench.await(bootstrap, appId, topic, Duration.ofMinutes(30), warmup, List.of());
    }
  }

  /** Does nothing, forwards nothing. */
  private static final class Nothing<V> implements FixedKeyProcessor<String, V, V> {
    @Override
    public void init(FixedKeyProcessorContext<String, V> context) {}

    @Override
    public void process(FixedKeyRecord<String, V> record) {}
  }
}
