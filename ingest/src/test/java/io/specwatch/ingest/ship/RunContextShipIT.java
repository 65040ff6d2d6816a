package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.testing.Ships;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run context on the real broker and registry: SGLang's server_args line, events, an
 * instrumented run_context line whose NCCL env differs, more events. Exactly two RunContexts reach
 * the compacted topic, each before the events stamped with its id.
 */
class RunContextShipIT {

  static final String SERVER_ARGS =
      "[2026-11-30 17:00:00] server_args=ServerArgs(model_path='moonshotai/Kimi-K2.5',"
          + " tokenizer_path='moonshotai/Kimi-K2.5', tp_size=8, dp_size=1, ep_size=1,"
          + " speculative_algorithm='EAGLE3',"
          + " speculative_draft_model_path='lmsys/Kimi-K2.5-EAGLE3', speculative_num_steps=2,"
          + " speculative_eagle_topk=1, speculative_num_draft_tokens=3, disable_cuda_graph=False,"
          + " mem_fraction_static=0.88, decode_log_interval=40, host='0.0.0.0', port=30000)";

  static final String RUN_CONTEXT =
      "{\"schema\":\"specwatch.run_context.v1\",\"ts\":\"2026-11-30T17:00:03Z\","
          + "\"engine\":\"sglang\",\"engine_version\":\"0.5.6\",\"engine_commit\":\"a1b2c3d\","
          + "\"model\":\"moonshotai/Kimi-K2.5\",\"spec_method\":\"EAGLE3\",\"tp\":8,"
          + "\"env\":{\"NCCL_PROTO\":\"LL\",\"NCCL_ALGO\":\"Ring\"}}";

  static String decode(int second, double tau) {
    return "[2026-11-30 17:00:0"
        + second
        + " TP0] Decode batch. #running-req: 4, #token: 1200, token usage: 0.02, accept len: "
        + tau
        + ", gen throughput (token/s): 240.00, #queue-req: 0, ";
  }

  static String cycle(int second, int step) {
    return "{\"schema\":\"specwatch.cycle.v1\",\"ts\":\"2026-11-30T17:00:0"
        + second
        + ".500Z\",\"rank\":0,\"step\":"
        + step
        + ",\"batch_size\":2,\"num_draft_tokens\":3,\"accepted\":[2,0],\"cycle_ms\":29.87,"
        + "\"phases\":{\"draft\":0.61,\"target_verify\":28.96,\"sample\":0.30}}";
  }

  @Test
  void publishesTwoRunContextsBeforeTheEventsStampedWithThem(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("engine.log");
    Files.write(
        log,
        List.of(
            SERVER_ARGS,
            decode(1, 2.0),
            cycle(1, 1),
            decode(2, 2.1),
            RUN_CONTEXT,
            decode(4, 1.9),
            cycle(4, 2),
            // the same context restated: no third record
            RUN_CONTEXT.replace("17:00:03", "17:00:05"),
            decode(6, 2.0)));
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String events = SpecwatchContainers.uniqueName("it.decode-events");
    String dlq = SpecwatchContainers.uniqueName("it.dead-letter");
    String requests = SpecwatchContainers.uniqueName("it.requests");
    String contexts = SpecwatchContainers.uniqueName("it.run-context");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(events, 1, (short) 1),
                  new NewTopic(dlq, 1, (short) 1),
                  new NewTopic(requests, 1, (short) 1),
                  new NewTopic(contexts, 1, (short) 1)
                      .configs(
                          Map.of(
                              TopicConfig.CLEANUP_POLICY_CONFIG,
                              TopicConfig.CLEANUP_POLICY_COMPACT))))
          .all()
          .get();
    }
    ShipConfig config =
        new ShipConfig(
            bootstrap,
            registry,
            events,
            dlq,
            "kimi-eagle3",
            "gpu-node-07",
            NormaliseConfig.defaults(),
            Map.of(),
            requests,
            contexts,
            RunContextSources.NONE);

    ShipResult result = Ships.shipAndClose(new LogFileShipper(config), log);

    assertThat(result).isEqualTo(new ShipResult(9, 9, 0, 0, 0, 2));
    List<ConsumerRecord<String, RunContext>> ctx =
        TopicReader.records(bootstrap, registry, contexts, RunContext.class, 2);
    assertThat(ctx).hasSize(2).allMatch(r -> r.key().equals("kimi-eagle3"));
    RunContext first = ctx.get(0).value();
    assertThat(first.getDeploymentId()).isEqualTo("kimi-eagle3");
    assertThat(first.getObservedAt()).isEqualTo(Instant.parse("2026-11-30T17:00:00Z"));
    assertThat(first.getEngine()).isEqualTo(Engine.SGLANG);
    assertThat(first.getModel()).isEqualTo("moonshotai/Kimi-K2.5");
    assertThat(first.getSpecMethod()).isEqualTo("EAGLE3");
    assertThat(first.getDraftModel()).isEqualTo("lmsys/Kimi-K2.5-EAGLE3");
    assertThat(first.getNumSteps()).isEqualTo(2);
    assertThat(first.getTopk()).isEqualTo(1);
    assertThat(first.getNumDraftTokens()).isEqualTo(3);
    assertThat(first.getTp()).isEqualTo(8);
    assertThat(first.getCudaGraph()).isTrue();
    assertThat(first.getEnv()).isEmpty();
    assertThat(first.getExtra()).containsEntry("decode_log_interval", "40");
    RunContext second = ctx.get(1).value();
    assertThat(second.getObservedAt()).isEqualTo(Instant.parse("2026-11-30T17:00:03Z"));
    assertThat(second.getEnv()).isEqualTo(Map.of("NCCL_PROTO", "LL", "NCCL_ALGO", "Ring"));
    assertThat(second.getEngineVersion()).isEqualTo("0.5.6");
    assertThat(second.getEngineCommit()).isEqualTo("a1b2c3d");
    // the fields the run_context line does not state still come from server_args
    assertThat(second.getDraftModel()).isEqualTo("lmsys/Kimi-K2.5-EAGLE3");
    assertThat(second.getNumSteps()).isEqualTo(2);
    assertThat(second.getContextId()).isNotEqualTo(first.getContextId()).hasSize(16);

    List<DecodeEvent> values =
        TopicReader.records(bootstrap, registry, events, DecodeEvent.class, 6).stream()
            .map(ConsumerRecord::value)
            .toList();
    assertThat(values).hasSize(6);
    assertThat(values)
        .extracting(DecodeEvent::getLineNumber)
        .containsExactly(2L, 3L, 4L, 6L, 7L, 9L);
    assertThat(values)
        .extracting(DecodeEvent::getRunContextId)
        .containsExactly(
            first.getContextId(),
            first.getContextId(),
            first.getContextId(),
            second.getContextId(),
            second.getContextId(),
            second.getContextId());
    DecodeEvent cycle = values.get(1);
    assertThat(cycle.getFormat()).isEqualTo("specwatch.cycle");
    assertThat(cycle.getAcceptLength()).isEqualTo(2.0);
    assertThat(cycle.getVerifyMs()).isEqualTo(28.96);
    // each context was acknowledged before the first event stamped with it was sent
    assertThat(ctx.get(0).timestamp()).isLessThanOrEqualTo(firstTimestamp(bootstrap, events));
  }

  @Test
  void shipCommandPublishesTheCliContextFirstAndReportsProgress(@TempDir Path dir)
      throws Exception {
    Path log = dir.resolve("engine.log");
    Files.write(log, List.of(decode(1, 2.0), SERVER_ARGS, decode(2, 2.0)));
    String contexts = SpecwatchContainers.uniqueName("it.cli.run-context");
    String events = SpecwatchContainers.uniqueName("it.cli.decode-events");
    var cli = io.specwatch.ingest.cli.IngestCli.newCommandLine();
    var out = new java.io.StringWriter();
    var err = new java.io.StringWriter();
    cli.setOut(new java.io.PrintWriter(out));
    cli.setErr(new java.io.PrintWriter(err));
    int code =
        cli.execute(
            "ship",
            "--file",
            log.toString(),
            "--deployment",
            "kimi-cli",
            "--bootstrap",
            SpecwatchContainers.kafkaBootstrap(),
            "--registry-url",
            SpecwatchContainers.registryUrl(),
            "--topic",
            events,
            "--dlq-topic",
            SpecwatchContainers.uniqueName("it.cli.dlq"),
            "--request-topic",
            SpecwatchContainers.uniqueName("it.cli.requests"),
            "--run-context-topic",
            contexts,
            "--hardware-class",
            "rtx-pro-6000x8",
            "--env",
            "NCCL_PROTO=LL",
            "--health-port",
            "0");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("lines=3 recognised=3 dead-lettered=0 unrecognised=0 skipped=0 run-contexts=3");
    assertThat(err.toString()).contains("progress file=" + log).contains("100.0%").contains("done");
    List<RunContext> ctx =
        TopicReader.records(
                SpecwatchContainers.kafkaBootstrap(),
                SpecwatchContainers.registryUrl(),
                contexts,
                RunContext.class,
                3)
            .stream()
            .map(ConsumerRecord::value)
            .toList();
    assertThat(ctx).hasSize(3);
    // at start: only what the CLI states, the rest documented placeholders
    assertThat(ctx.get(0).getModel()).isEqualTo("unknown");
    assertThat(ctx.get(0).getExtra()).containsEntry("missing", "model,spec_method,tp");
    assertThat(ctx.get(0).getHardwareClass()).isEqualTo("rtx-pro-6000x8");
    // server_args completes it; the CLI fields stay
    assertThat(ctx.get(1).getModel()).isEqualTo("moonshotai/Kimi-K2.5");
    assertThat(ctx.get(1).getHardwareClass()).isEqualTo("rtx-pro-6000x8");
    assertThat(ctx.get(1).getEnv()).isEqualTo(Map.of("NCCL_PROTO", "LL"));
    assertThat(ctx.get(1).getExtra()).doesNotContainKey("missing");
    // server_args (17:00:00) is older than the start context, sent with the first event
    // (17:00:01): published again at 17:00:01, where it replaces the start context
    assertThat(ctx.get(1).getObservedAt()).isBefore(ctx.get(0).getObservedAt());
    assertThat(ctx.get(2).getContextId()).isEqualTo(ctx.get(1).getContextId());
    assertThat(ctx.get(2).getObservedAt()).isEqualTo(ctx.get(0).getObservedAt());
  }

  private static long firstTimestamp(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it.ts"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            p,
            new StringDeserializer(),
            new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(300)).forEach(out::add);
                return !out.isEmpty();
              });
      return out.get(0).timestamp();
    }
  }
}
