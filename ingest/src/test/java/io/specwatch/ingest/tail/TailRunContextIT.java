package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.IngestMetrics;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tail with a {@code --run-context} file and CLI fields on the real broker and registry: the
 * context is published at start, re-published when the file changes while tailing, events are
 * stamped with the id in force, and the shipper metrics are served on /metrics.
 */
class TailRunContextIT {

  private static String decode(int second) {
    return "[2026-11-30 17:00:"
        + String.format("%02d", second)
        + " TP0] Decode batch. #running-req: 4, #token: 1200, token usage: 0.02, accept len: 2.00,"
        + " gen throughput (token/s): 240.00, #queue-req: 0, ";
  }

  @Test
  void fileChangeWhileTailingPublishesANewContext(@TempDir Path dir) throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String events = SpecwatchContainers.uniqueName("it.tailctx.events");
    String contexts = SpecwatchContainers.uniqueName("it.tailctx.run-context");
    String dlq = SpecwatchContainers.uniqueName("it.tailctx.dlq");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(events, 1, (short) 1),
                  new NewTopic(contexts, 1, (short) 1),
                  new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
    }
    Path ctxFile = dir.resolve("context.json");
    Files.writeString(
        ctxFile,
        "{\"schema\":\"specwatch.run_context.v1\",\"model\":\"moonshotai/Kimi-K2.5\","
            + "\"spec_method\":\"EAGLE3\",\"env\":{\"NCCL_PROTO\":\"LL\"}}");
    ContextFields.Builder cli = ContextFields.builder();
    cli.tp = 8;
    cli.hardwareClass = "rtx-pro-6000x8";
    Path log = dir.resolve("logs/engine.log");
    Files.createDirectories(log.getParent());
    Files.write(
        log,
        List.of(
            "[2026-11-30 17:00:00] server_args=ServerArgs(model_path='moonshotai/Kimi-K2.5',"
                + " tp_size=8, speculative_algorithm='EAGLE3', speculative_num_steps=2)",
            decode(1),
            decode(2)));
    ShipConfig ship =
        new ShipConfig(
            bootstrap,
            registry,
            events,
            dlq,
            "kimi-eagle3",
            "gpu-1",
            NormaliseConfig.defaults(),
            Map.of(),
            SpecwatchContainers.uniqueName("it.tailctx.requests"),
            contexts,
            new RunContextSources(cli.build(), ctxFile));
    TailConfig config =
        new TailConfig(
            ship,
            List.of(dir.resolve("logs/*.log").toString()),
            dir.resolve("checkpoints"),
            Duration.ofMillis(100),
            1000,
            false,
            Duration.ofSeconds(10));
    try (AppRuntime runtime = AppRuntime.start("ingest-tail", new HealthOptions("127.0.0.1", 0))) {
      Tailer[] ref = new Tailer[1];
      Tailer tailer =
          new Tailer(
              config,
              Clock.systemUTC(),
              new IngestMetrics(runtime.registry(), () -> ref[0].bytesBehind()));
      ref[0] = tailer;
      var pool = Executors.newSingleThreadExecutor();
      Future<?> running = pool.submit(tailer);
      try {
        List<RunContext> ctx = new ArrayList<>();
        List<DecodeEvent> evs = new ArrayList<>();
        try (var ctxConsumer = consumer(bootstrap, registry, contexts, RunContext.class);
            var evConsumer = consumer(bootstrap, registry, events, DecodeEvent.class)) {
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () -> {
                    ctxConsumer.poll(Duration.ofMillis(200)).forEach(r -> ctx.add(r.value()));
                    evConsumer.poll(Duration.ofMillis(200)).forEach(r -> evs.add(r.value()));
                    return ctx.size() >= 3 && evs.size() >= 2;
                  });
          // at start: the CLI and the file
          RunContext atStart = ctx.get(0);
          assertThat(atStart.getModel()).isEqualTo("moonshotai/Kimi-K2.5");
          assertThat(atStart.getTp()).isEqualTo(8);
          assertThat(atStart.getHardwareClass()).isEqualTo("rtx-pro-6000x8");
          assertThat(atStart.getEnv()).isEqualTo(Map.of("NCCL_PROTO", "LL"));
          assertThat(atStart.getNumSteps()).isNull();
          // then server_args adds what the engine reveals
          RunContext first = ctx.get(1);
          assertThat(first.getNumSteps()).isEqualTo(2);
          assertThat(first.getEnv()).isEqualTo(Map.of("NCCL_PROTO", "LL"));
          assertThat(evs).allMatch(e -> first.getContextId().equals(e.getRunContextId()));
          // its line (2026-11-30) is older than the start context (now): published again at the
          // start context's time, so that the start context is not the one in force from then on
          RunContext restated = ctx.get(2);
          assertThat(restated.getContextId()).isEqualTo(first.getContextId());
          assertThat(first.getObservedAt()).isBefore(atStart.getObservedAt());
          assertThat(restated.getObservedAt()).isEqualTo(atStart.getObservedAt());

          // the operator's env stops reaching the workers: the file is rewritten
          Files.writeString(
              ctxFile,
              "{\"schema\":\"specwatch.run_context.v1\",\"model\":\"moonshotai/Kimi-K2.5\","
                  + "\"spec_method\":\"EAGLE3\",\"env\":{}}");
          Files.setLastModifiedTime(
              ctxFile, FileTime.fromMillis(System.currentTimeMillis() + 2000));
          await()
              .atMost(Duration.ofSeconds(30))
              .until(
                  () -> {
                    ctxConsumer.poll(Duration.ofMillis(200)).forEach(r -> ctx.add(r.value()));
                    return ctx.size() >= 4;
                  });
          RunContext second = ctx.get(3);
          assertThat(second.getEnv()).isEmpty();
          assertThat(second.getTp()).isEqualTo(8);
          assertThat(second.getNumSteps()).isEqualTo(2);
          Files.write(log, List.of(decode(3)), StandardOpenOption.APPEND);
          await()
              .atMost(Duration.ofSeconds(30))
              .until(
                  () -> {
                    evConsumer.poll(Duration.ofMillis(200)).forEach(r -> evs.add(r.value()));
                    return evs.size() >= 3;
                  });
          assertThat(evs.get(2).getRunContextId()).isEqualTo(second.getContextId());
          ctxConsumer.poll(Duration.ofMillis(500)).forEach(r -> ctx.add(r.value()));
          assertThat(ctx).hasSize(4);
        }
        String metrics =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(
                            URI.create(
                                "http://127.0.0.1:" + runtime.port().orElseThrow() + "/metrics"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(metrics)
            .contains("specwatch_ingest_lines_read_total{app=\"ingest-tail\"} 4.0")
            .contains(
                "specwatch_ingest_records_total{app=\"ingest-tail\",kind=\"decode_event\"} 3.0")
            .contains(
                "specwatch_ingest_records_total{app=\"ingest-tail\",kind=\"run_context\"} 4.0")
            .contains("specwatch_ingest_dead_letters_total{app=\"ingest-tail\"} 0.0")
            .contains("specwatch_ingest_kafka_errors_total{app=\"ingest-tail\"} 0.0")
            .contains("specwatch_ingest_bytes_behind_bytes{app=\"ingest-tail\"} 0.0");
      } finally {
        tailer.stop();
        running.get();
      }
      // restart: resumes after server_args, yet still knows what it revealed (checkpoint dir)
      Files.write(log, List.of(decode(4)), StandardOpenOption.APPEND);
      Tailer restarted = new Tailer(config, Clock.systemUTC());
      Future<?> again = pool.submit(restarted);
      try (var evConsumer = consumer(bootstrap, registry, events, DecodeEvent.class);
          var ctxConsumer = consumer(bootstrap, registry, contexts, RunContext.class)) {
        List<DecodeEvent> evs = new ArrayList<>();
        List<RunContext> ctx = new ArrayList<>();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> {
                  evConsumer.poll(Duration.ofMillis(200)).forEach(r -> evs.add(r.value()));
                  ctxConsumer.poll(Duration.ofMillis(200)).forEach(r -> ctx.add(r.value()));
                  return evs.size() >= 4 && ctx.size() >= 5;
                });
        assertThat(evs).hasSize(4);
        assertThat(ctx).hasSize(5);
        // republished at start with the same content, hence the same id
        assertThat(ctx.get(4).getContextId()).isEqualTo(ctx.get(3).getContextId());
        assertThat(ctx.get(4).getNumSteps()).isEqualTo(2);
        assertThat(evs.get(3).getRunContextId()).isEqualTo(ctx.get(3).getContextId());
      } finally {
        restarted.stop();
        again.get();
        pool.shutdownNow();
      }
    }
  }

  private static <T extends SpecificRecord> KafkaConsumer<String, T> consumer(
      String bootstrap, String registry, String topic, Class<T> type) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it.tailctx"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    Deserializer<T> values =
        AvroSerde.forClass(type, Map.of("schema.registry.url", registry), false).deserializer();
    KafkaConsumer<String, T> c = new KafkaConsumer<>(p, new StringDeserializer(), values);
    c.subscribe(List.of(topic));
    return c;
  }
}
