package io.specwatch.sink;

import static io.specwatch.sink.SinkItSupport.committed;
import static io.specwatch.sink.SinkItSupport.endOffsets;
import static io.specwatch.sink.SinkItSupport.number;
import static io.specwatch.sink.SinkItSupport.produce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.testkit.ClickHouseHttp;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.clickhouse.ClickHouseContainer;

/**
 * ClickHouse really stopped mid-run (its own container, {@code docker stop}) for ~15 s and started
 * again: the sink pauses, keeps running, commits nothing it has not inserted, and after the restart
 * every row is there exactly once.
 */
class ClickHouseOutageIT {

  private static final int EVENTS_PER_PHASE = 300;
  private static final int WINDOWS_PER_PHASE = 20;

  @Test
  void survivesClickHouseStoppedAndStartedWithNothingLost() throws Exception {
    int port = freePort();
    ClickHouseContainer clickhouse =
        new ClickHouseContainer(SpecwatchContainers.images().clickhouseImage())
            .withUsername("default")
            .withPassword("")
            .withEnv("CLICKHOUSE_SKIP_USER_SETUP", "1")
            .withStartupTimeout(Duration.ofMinutes(2));
    // A fixed host port: docker stop/start keeps it, so the sink's URL stays valid.
    clickhouse.setPortBindings(List.of(port + ":8123"));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      clickhouse.start();
      String url = clickhouse.getHttpUrl();
      String bootstrap = SpecwatchContainers.kafkaBootstrap();
      String registry = SpecwatchContainers.registryUrl();
      String prefix = SpecwatchContainers.uniqueName("it.outage");
      String db = SpecwatchContainers.uniqueName("it_outage");
      String events = prefix + ".decode-events";
      String windows = prefix + ".window-results";
      Map<String, Integer> partitions = Map.of(events, 3, windows, 3);
      ClickHouseConfig ch = ClickHouseConfig.of(url, "default", "", db);
      try (Admin admin =
              Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
          ClickHouseSql sql = new ClickHouseSql(ch)) {
        List<NewTopic> topics = new ArrayList<>();
        partitions.forEach((t, n) -> topics.add(new NewTopic(t, n, (short) 1)));
        topics.add(new NewTopic(prefix + ".dlq", 1, (short) 1));
        admin.createTopics(topics).all().get();
        Migrator.withBundledMigrations(sql, db).migrate();
        produceEvents(bootstrap, registry, events, windows, 0);

        SinkConfig config =
            new SinkConfig(
                bootstrap,
                registry,
                Map.of(SinkTable.DECODE_EVENTS, events, SinkTable.WINDOW_RESULTS, windows),
                prefix + ".dlq",
                SpecwatchContainers.uniqueName("it-outage"),
                ch,
                200,
                Duration.ofMillis(300),
                Optional.empty(),
                new Backoff(Duration.ofMillis(200), Duration.ofSeconds(2), 500),
                InsertFormat.ROW_BINARY,
                Map.of());
        Counting listener = new Counting();
        ClickHouseSink sink = new ClickHouseSink(config, sql, listener);
        Future<SinkStats> run = pool.submit(sink::run);
        try {
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> countFinal(url, db, "decode_events") == EVENTS_PER_PHASE);

          // Really stop the server (the container's process ends; its data stays).
          String id = clickhouse.getContainerId();
          DockerClientFactory.instance().client().stopContainerCmd(id).withTimeout(2).exec();
          produceEvents(bootstrap, registry, events, windows, EVENTS_PER_PHASE);
          await().atMost(Duration.ofSeconds(30)).until(() -> listener.unavailable.get() > 0);
          // Down for a while: the sink keeps running and commits nothing beyond what ClickHouse
          // acknowledged before the stop.
          await()
              .during(Duration.ofSeconds(12))
              .atMost(Duration.ofSeconds(20))
              .until(() -> !run.isDone());
          Map<TopicPartition, Long> end = endOffsets(admin, partitions);
          Map<TopicPartition, Long> duringOutage = committed(admin, config.groupId());
          long committedEvents =
              duringOutage.entrySet().stream()
                  .filter(e -> e.getKey().topic().equals(events))
                  .mapToLong(Map.Entry::getValue)
                  .sum();
          long endEvents =
              end.entrySet().stream()
                  .filter(e -> e.getKey().topic().equals(events))
                  .mapToLong(Map.Entry::getValue)
                  .sum();
          assertThat(committedEvents).as("offsets committed while down").isLessThan(endEvents);
          int rowsBeforeRestart = listener.rows.get();

          DockerClientFactory.instance().client().startContainerCmd(id).exec();
          await()
              .atMost(Duration.ofSeconds(60))
              .ignoreExceptions()
              .until(() -> ClickHouseHttp.query(url, "SELECT 1").strip().equals("1"));
          await()
              .atMost(Duration.ofSeconds(60))
              .ignoreExceptions()
              .until(() -> committed(admin, config.groupId()).equals(end));
          assertThat(listener.recovered.get()).isPositive();
          assertThat(listener.rows.get()).isGreaterThan(rowsBeforeRestart);
        } finally {
          sink.stop();
        }
        SinkStats stats = run.get(60, TimeUnit.SECONDS);
        sink.close();
        assertThat(stats.deadLetters()).isZero();
        assertThat(stats.retries()).isPositive();
        long allEvents = 2L * EVENTS_PER_PHASE;
        assertThat(countFinal(url, db, "decode_events")).isEqualTo(allEvents);
        assertThat(number(sql, "SELECT uniqExact(event_id) FROM " + db + ".decode_events"))
            .isEqualTo(allEvents);
        assertThat(countFinal(url, db, "window_results")).isEqualTo(2L * WINDOWS_PER_PHASE);
        assertThat(
                number(
                    sql,
                    "SELECT uniqExact(deployment_id, prompt_category, batch_bucket, spec_enabled, window_start)"
                        + " FROM "
                        + db
                        + ".window_results"))
            .isEqualTo(2L * WINDOWS_PER_PHASE);
      }
    } finally {
      pool.shutdownNow();
      clickhouse.stop();
    }
  }

  private static void produceEvents(
      String bootstrap, String registry, String events, String windows, int from) {
    List<DecodeEvent> e = new ArrayList<>();
    for (int i = from; i < from + EVENTS_PER_PHASE; i++) {
      e.add(ClickHouseSinkIT.event(i, "dep-" + (i % 3)));
    }
    produce(bootstrap, registry, events, e, DecodeEvent::getDeploymentId, List.of());
    List<WindowResult> w = new ArrayList<>();
    int first = from / EVENTS_PER_PHASE * WINDOWS_PER_PHASE;
    for (int i = first; i < first + WINDOWS_PER_PHASE; i++) {
      w.add(ClickHouseSinkIT.window(i));
    }
    produce(bootstrap, registry, windows, w, WindowResult::getDeploymentId, List.of());
  }

  private static long countFinal(String url, String db, String table) {
    return Long.parseLong(
        ClickHouseHttp.query(url, "SELECT count() FROM " + db + "." + table + " FINAL").strip());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Thread-safe view of what the sink reports. */
  private static final class Counting implements SinkListener {
    final AtomicInteger rows = new AtomicInteger();
    final AtomicInteger unavailable = new AtomicInteger();
    final AtomicInteger recovered = new AtomicInteger();

    @Override
    public void inserted(String table, int count, long nanos) {
      rows.addAndGet(count);
    }

    @Override
    public void clickHouseUnavailable(String reason) {
      unavailable.incrementAndGet();
    }

    @Override
    public void clickHouseRecovered() {
      recovered.incrementAndGet();
    }

    @Override
    public void revoked(Collection<TopicPartition> partitions) {}
  }
}
