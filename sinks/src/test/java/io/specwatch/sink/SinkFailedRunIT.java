package io.specwatch.sink;

import static io.specwatch.sink.SinkItSupport.committed;
import static io.specwatch.sink.SinkItSupport.number;
import static io.specwatch.sink.SinkItSupport.produce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestPorts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * A run that fails commits nothing past the failure. The sink reads with a registry nobody answers
 * at: no record can be decoded, and neither can its dead letter be serialised, so the encode step
 * fails and {@code run()} throws. Closing the sink then revokes its partitions; before 2026-12-02
 * the rebalance listener committed the consumer's position there, past records that were in no
 * buffer and in no dead letter, and the next run skipped them for good. Now nothing is committed,
 * and the next run (registry reachable) loads every record.
 */
class SinkFailedRunIT {

  private static final int EVENTS = 50;

  @Test
  void aFailedRunCommitsNothingAndTheNextRunLoadsEveryRecord() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String prefix = SpecwatchContainers.uniqueName("it.sinkfail");
    String db = SpecwatchContainers.uniqueName("it_sinkfail");
    String topic = prefix + ".decode-events";
    String dlq = prefix + ".dead-letter";
    String group = SpecwatchContainers.uniqueName("it-sinkfail");
    ClickHouseConfig ch =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    Map<SinkTable, String> topics = Map.of(SinkTable.DECODE_EVENTS, topic);
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        ClickHouseSql sql = new ClickHouseSql(ch)) {
      admin
          .createTopics(List.of(new NewTopic(topic, 1, (short) 1), new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
      Migrator.withBundledMigrations(sql, db).migrate();
      List<DecodeEvent> events = new ArrayList<>();
      for (int i = 0; i < EVENTS; i++) {
        events.add(ClickHouseSinkIT.event(i, "dep-" + (i % 3)));
      }
      produce(bootstrap, registry, topic, events, DecodeEvent::getDeploymentId, List.of());

      String deadRegistry = "http://127.0.0.1:" + TestPorts.freePort(); // nobody answers
      try (ClickHouseSink failing =
          new ClickHouseSink(
              ClickHouseSinkIT.config(bootstrap, deadRegistry, topics, dlq, group, ch), sql)) {
        assertThatThrownBy(failing::run).as("a run that can neither decode nor dead-letter");
      }
      assertThat(committed(admin, group).values())
          .as("offsets committed by the failed run and its close")
          .allMatch(offset -> offset == 0L);
      assertThat(number(sql, "SELECT count() FROM " + db + ".decode_events FINAL")).isZero();

      try (ClickHouseSink sink =
          new ClickHouseSink(
              ClickHouseSinkIT.config(bootstrap, registry, topics, dlq, group, ch), sql)) {
        sink.run();
      }
      assertThat(number(sql, "SELECT count() FROM " + db + ".decode_events FINAL"))
          .isEqualTo(EVENTS);
    }
  }
}
