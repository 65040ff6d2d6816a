package io.specwatch.sink;

import static io.specwatch.sink.SinkItSupport.committed;
import static io.specwatch.sink.SinkItSupport.number;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.cli.SinkCli;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.testkit.SpecwatchContainers;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code sink replay --from --to} on the real broker, registry and ClickHouse: 30 window results
 * with record timestamps one minute apart over two partitions; a replay of [10 min, 20 min) into a
 * fresh database loads exactly those 10 windows, a second replay of the same range adds no visible
 * row, and the live sink's group is never touched.
 */
class ReplayRangeIT {

  private static final Instant T0 = Instant.parse("2026-03-14T09:00:00Z");

  @Test
  void replaysExactlyTheRecordsOfTheRange() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.replay.window-results");
    String dlq = SpecwatchContainers.uniqueName("it.replay.dead-letter");
    String db = SpecwatchContainers.uniqueName("it_replay");
    String group = SpecwatchContainers.uniqueName("it-live");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  // the records carry March 2026 timestamps on purpose (replay selects by record
                  // time): without infinite retention the test broker deletes them within seconds
                  new NewTopic(topic, 2, (short) 1).configs(Map.of("retention.ms", "-1")),
                  new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      try (KafkaProducer<String, WindowResult> producer =
          new KafkaProducer<>(
              p,
              new StringSerializer(),
              AvroSerde.forClass(WindowResult.class, Map.of("schema.registry.url", registry), false)
                  .serializer())) {
        for (int i = 0; i < 30; i++) {
          WindowResult w = ClickHouseSinkIT.window(i);
          producer.send(
              new ProducerRecord<>(
                  topic, i % 2, T0.plusSeconds(60L * i).toEpochMilli(), w.getDeploymentId(), w));
        }
        producer.flush();
      }
      String[] args = {
        "replay",
        "--from",
        T0.plusSeconds(600).toString(),
        "--to",
        T0.plusSeconds(1200).toString(),
        "--tables",
        "window_results",
        "--window-results-topic",
        topic,
        "--dead-letter-topic",
        dlq,
        "--group-id",
        group,
        "--bootstrap",
        bootstrap,
        "--registry-url",
        registry,
        "--clickhouse-url",
        SpecwatchContainers.clickhouseHttpUrl(),
        "--database",
        db,
        "--health-port",
        "-1"
      };

      assertThat(SinkCli.execute(args)).isZero();

      ClickHouseConfig ch =
          ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
      try (ClickHouseSql sql = new ClickHouseSql(ch)) {
        String table = db + ".window_results";
        assertThat(number(sql, "SELECT count() FROM " + table)).isEqualTo(10);
        // windows 10..19: events = 10 + i
        assertThat(number(sql, "SELECT min(events) FROM " + table)).isEqualTo(20);
        assertThat(number(sql, "SELECT max(events) FROM " + table)).isEqualTo(29);

        assertThat(SinkCli.execute(args)).isZero();

        assertThat(number(sql, "SELECT count() FROM " + table + " FINAL")).isEqualTo(10);
        assertThat(number(sql, "SELECT sum(events) FROM " + table + " FINAL"))
            .isEqualTo(10L * 20 + 45);
      }
      assertThat(committed(admin, group)).isEmpty();
      // the replay group committed at least through the range's end (10 of 15 per partition);
      // its offsets are informational: every replay seeks to --from
      assertThat(committed(admin, group + "-replay"))
          .containsOnlyKeys(new TopicPartition(topic, 0), new TopicPartition(topic, 1))
          .allSatisfy((tp, offset) -> assertThat(offset).isBetween(10L, 15L));
    }
  }
}
