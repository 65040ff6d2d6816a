package io.specwatch.sink;

import static io.specwatch.sink.SinkItSupport.committed;
import static io.specwatch.sink.SinkItSupport.endOffsets;
import static io.specwatch.sink.SinkItSupport.number;
import static io.specwatch.sink.SinkItSupport.produce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.dashboard.DashboardApp;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.testkit.ClickHouseHttp;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestPorts;
import java.net.http.HttpResponse;
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
 * ClickHouse really stopped mid-run (its own container, {@code docker stop}) and started again: the
 * sink pauses its partitions, keeps running, stops buffering (the buffered-row gauge holds still
 * below its bound while {@value #PHASES_WHILE_PAUSED} more phases of records arrive), commits
 * nothing it has not inserted, reports not ready on {@code /health/ready} (and the dashboard over
 * the same ClickHouse too), and after the restart every row is there exactly once, the metrics
 * count each once and both are ready again. The sink runs as {@code sink run} wires it: {@link
 * SinkMeters} on an {@link AppRuntime} with a health port.
 */
class ClickHouseOutageIT {

  private static final int EVENTS_PER_PHASE = 300;
  private static final int WINDOWS_PER_PHASE = 20;
  private static final int BATCH_SIZE = 200;
  private static final int TABLES = 2;
  // produced after the sink paused; with the phase produced at the stop, more than the bound
  private static final int PHASES_WHILE_PAUSED = 6;
  private static final int PHASES = 2 + PHASES_WHILE_PAUSED;
  // ClickHouseSink: two batches per table (one in flight, one filling) plus two polls
  // (max.poll.records = batch size), see sinks/README.md, Delivery semantics
  private static final Duration PROBE = Duration.ofMillis(200);
  private static final int BUFFER_BOUND = 2 * TABLES * BATCH_SIZE + 2 * BATCH_SIZE;

  @Test
  void survivesClickHouseStoppedAndStartedWithNothingLost() throws Exception {
    int port = TestPorts.freePort();
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
                BATCH_SIZE,
                Duration.ofMillis(300),
                Optional.empty(),
                new Backoff(Duration.ofMillis(200), Duration.ofSeconds(2), 500),
                InsertFormat.ROW_BINARY,
                Map.of());
        HealthOptions local = new HealthOptions("127.0.0.1", 0);
        AppRuntime app = AppRuntime.start("sink", local);
        AppRuntime dashboardApp = AppRuntime.start("dashboard", local);
        ClickHouseSql dashboardSql = new ClickHouseSql(ch);
        DashboardApp dashboard =
            DashboardApp.start(dashboardSql, db, "127.0.0.1", 0, dashboardApp, PROBE);
        int health = app.port().orElseThrow();
        int dashboardHealth = dashboardApp.port().orElseThrow();
        app.readiness().notReady("ClickHouse answered; waiting for partitions"); // as RunCommand
        Counting listener =
            new Counting(new SinkMeters(app.registry(), app.readiness(), ch.database()));
        ClickHouseSink sink = new ClickHouseSink(config, sql, listener);
        Future<SinkStats> run = pool.submit(sink::run);
        try {
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> countFinal(url, db, "decode_events") == EVENTS_PER_PHASE);
          assertThat(HealthHttp.ready(health)).as("sink ready before the stop").isEqualTo(200);
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> HealthHttp.ready(dashboardHealth) == 200);
          assertThat(HealthHttp.metric(health, "specwatch_sink_paused")).isZero();

          // Really stop the server (the container's process ends; its data stays).
          String id = clickhouse.getContainerId();
          DockerClientFactory.instance().client().stopContainerCmd(id).withTimeout(2).exec();
          produceEvents(bootstrap, registry, events, windows, EVENTS_PER_PHASE);
          await().atMost(Duration.ofSeconds(30)).until(() -> listener.unavailable.get() > 0);
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> HealthHttp.metric(health, "specwatch_sink_paused") == 1.0);
          HttpResponse<String> notReady = HealthHttp.get(health, "/health/ready");
          assertThat(notReady.statusCode())
              .as("sink ready while ClickHouse is down")
              .isEqualTo(503);
          assertThat(notReady.body()).contains("ClickHouse unavailable, consumption paused");
          assertThat(HealthHttp.get(health, "/health/live").statusCode())
              .as("a pause is not fatal")
              .isEqualTo(200);
          assertThat(HealthHttp.metric(health, "specwatch_sink_clickhouse_unavailable_total"))
              .isGreaterThanOrEqualTo(1);
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> HealthHttp.ready(dashboardHealth) == 503);
          assertThat(HealthHttp.get(dashboardHealth, "/health/ready").body())
              .contains("ClickHouse not answering");

          // Records keep arriving while paused: nothing more is buffered (the partitions are
          // paused), so the gauge holds still, below the bound and below what arrived.
          List<Double> buffered = new ArrayList<>();
          for (int phase = 2; phase < PHASES; phase++) {
            produceEvents(bootstrap, registry, events, windows, phase * EVENTS_PER_PHASE);
            buffered.add(HealthHttp.metric(health, "specwatch_sink_buffered_rows"));
          }
          // Let the last phase's records reach the broker's log end and a few polls pass.
          await()
              .during(Duration.ofSeconds(3))
              .atMost(Duration.ofSeconds(10))
              .until(() -> !run.isDone());
          buffered.add(HealthHttp.metric(health, "specwatch_sink_buffered_rows"));
          assertThat(buffered)
              .as("rows buffered while paused, sampled after each phase that arrived")
              .allMatch(b -> b.equals(buffered.get(0)));
          assertThat(buffered.get(0)).isPositive().isLessThanOrEqualTo(BUFFER_BOUND);
          assertThat(HealthHttp.metric(health, "specwatch_sink_paused")).isEqualTo(1.0);
          long arrivedSinceStop = (long) (PHASES - 1) * (EVENTS_PER_PHASE + WINDOWS_PER_PHASE);
          assertThat(arrivedSinceStop).isGreaterThan(BUFFER_BOUND); // the check could fail
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
          assertThat(HealthHttp.ready(health)).as("sink ready after the restart").isEqualTo(200);
          assertThat(HealthHttp.metric(health, "specwatch_sink_paused")).isZero();
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> HealthHttp.metric(health, "specwatch_sink_buffered_rows") == 0.0);
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> HealthHttp.ready(dashboardHealth) == 200);
          // every row acknowledged once: a failed (streamed) insert is counted only when the
          // batch's retry is acknowledged
          assertThat(
                  HealthHttp.metric(
                      health,
                      "specwatch_sink_rows_inserted_total",
                      "table=\"" + db + ".decode_events\""))
              .isEqualTo((double) PHASES * EVENTS_PER_PHASE);
          assertThat(
                  HealthHttp.metric(
                      health,
                      "specwatch_sink_rows_inserted_total",
                      "table=\"" + db + ".window_results\""))
              .isEqualTo((double) PHASES * WINDOWS_PER_PHASE);
        } finally {
          sink.stop();
          dashboard.close();
          dashboardApp.close();
          dashboardSql.close();
        }
        SinkStats stats = run.get(60, TimeUnit.SECONDS);
        sink.close();
        app.close();
        assertThat(stats.deadLetters()).isZero();
        assertThat(stats.retries()).isPositive();
        long allEvents = (long) PHASES * EVENTS_PER_PHASE;
        assertThat(countFinal(url, db, "decode_events")).isEqualTo(allEvents);
        assertThat(number(sql, "SELECT uniqExact(event_id) FROM " + db + ".decode_events"))
            .isEqualTo(allEvents);
        long allWindows = (long) PHASES * WINDOWS_PER_PHASE;
        assertThat(countFinal(url, db, "window_results")).isEqualTo(allWindows);
        assertThat(
                number(
                    sql,
                    "SELECT uniqExact(deployment_id, prompt_category, batch_bucket, spec_enabled, window_start)"
                        + " FROM "
                        + db
                        + ".window_results"))
            .isEqualTo(allWindows);
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

  /** Thread-safe view of what the sink reports, passed on to {@code meters}. */
  private static final class Counting implements SinkListener {
    final SinkMeters meters;
    final AtomicInteger rows = new AtomicInteger();
    final AtomicInteger unavailable = new AtomicInteger();
    final AtomicInteger recovered = new AtomicInteger();

    Counting(SinkMeters meters) {
      this.meters = meters;
    }

    @Override
    public void assigned(Collection<TopicPartition> partitions) {
      meters.assigned(partitions);
    }

    @Override
    public void revoked(Collection<TopicPartition> partitions) {
      meters.revoked(partitions);
    }

    @Override
    public void inserted(String table, int count, long nanos) {
      rows.addAndGet(count);
      meters.inserted(table, count, nanos);
    }

    @Override
    public void deadLettered(String table, String stage) {
      meters.deadLettered(table, stage);
    }

    @Override
    public void clickHouseUnavailable(String reason) {
      unavailable.incrementAndGet();
      meters.clickHouseUnavailable(reason);
    }

    @Override
    public void clickHouseRecovered() {
      recovered.incrementAndGet();
      meters.clickHouseRecovered();
    }

    @Override
    public void buffered(int rowCount, boolean paused) {
      meters.buffered(rowCount, paused);
    }
  }
}
