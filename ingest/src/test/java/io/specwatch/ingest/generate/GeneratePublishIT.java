package io.specwatch.ingest.generate;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** {@code generate --publish} against the real broker and registry: everything sent arrives. */
class GeneratePublishIT {

  @Test
  void publishesTheDemoAsAvroRecordsKeyedByDeployment() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String decode = SpecwatchContainers.uniqueName("it.gen.decode");
    String requests = SpecwatchContainers.uniqueName("it.gen.requests");
    String contexts = SpecwatchContainers.uniqueName("it.gen.context");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(decode, 3, (short) 1),
                  new NewTopic(requests, 1, (short) 1),
                  new NewTopic(contexts, 1, (short) 1)))
          .all()
          .get();
    }
    GenerateConfig config =
        new GenerateConfig(
            "demo",
            0,
            42,
            FleetGenerator.DEFAULT_START,
            Duration.ofMinutes(2),
            null,
            new KafkaOutput.Target(bootstrap, registry, decode, requests, contexts, Map.of()),
            false,
            1,
            List.of(
                DemoScenario.KIMI_EAGLE3,
                DemoScenario.KIMI_BASELINE,
                DemoScenario.KIMI_EAGLE3_NCCL,
                DemoScenario.KIMI_EAGLE_COLLAPSE,
                DemoScenario.LLAMA_EAGLE3));
    Generate.Result r = Generate.run(config, nanos -> {}, new PrintWriter(new StringWriter()));
    Scenario s = r.scenario();

    List<ConsumerRecord<String, RunContext>> rc =
        TopicReader.records(
            bootstrap, registry, contexts, RunContext.class, r.sent().runContexts());
    List<ConsumerRecord<String, RequestAcceptance>> ra =
        TopicReader.records(
            bootstrap, registry, requests, RequestAcceptance.class, r.sent().requests());
    List<ConsumerRecord<String, DecodeEvent>> de =
        TopicReader.records(
            bootstrap, registry, decode, DecodeEvent.class, r.sent().decodeEvents());

    // one context per segment: 5 deployments, two of them change at the middle
    assertThat(s.deployments()).hasSize(5);
    assertThat(r.sent().runContexts()).isEqualTo(7);
    assertThat(rc).hasSize(7);
    assertThat(ra).hasSize((int) r.sent().requests()).isNotEmpty();
    assertThat(de).hasSize((int) r.sent().decodeEvents());
    assertThat(r.sent().decodeEvents()).isEqualTo(r.totals().ticks());
    Set<String> ids = s.deployments().stream().map(DeploymentSpec::id).collect(Collectors.toSet());
    assertThat(de.stream().map(ConsumerRecord::key).collect(Collectors.toSet())).isEqualTo(ids);
    assertThat(de).allMatch(x -> x.key().equals(x.value().getDeploymentId()));
    assertThat(de.stream().map(x -> x.value().getEventId()).distinct()).hasSize(de.size());

    DeploymentSpec nccl = s.deployment(DemoScenario.KIMI_EAGLE3_NCCL);
    String before = EventRecords.runContext(nccl, nccl.segments().get(0), s.start()).getContextId();
    String after = EventRecords.runContext(nccl, nccl.segments().get(1), s.start()).getContextId();
    assertThat(before).isNotEqualTo(after);
    assertThat(
            rc.stream()
                .filter(x -> x.key().equals(nccl.id()))
                .map(x -> x.value().getContextId())
                .toList())
        .containsExactly(before, after);
    List<DecodeEvent> ncclEvents =
        de.stream()
            .map(ConsumerRecord::value)
            .filter(e -> e.getDeploymentId().equals(nccl.id()))
            .toList();
    assertThat(ncclEvents).allMatch(e -> e.getKind().name().equals("CYCLE"));
    double verifyBefore = meanVerify(ncclEvents, before);
    double verifyAfter = meanVerify(ncclEvents, after);
    assertThat(verifyBefore).isBetween(18.0, 20.5);
    assertThat(verifyAfter).isBetween(28.0, 31.0);

    assertThat(
            de.stream()
                .map(ConsumerRecord::value)
                .filter(e -> e.getDeploymentId().equals(DemoScenario.KIMI_EAGLE_COLLAPSE)))
        .isNotEmpty()
        .allMatch(e -> e.getAcceptLength() == 1.0 && e.getAcceptedTokens() == 0);
    assertThat(
            de.stream()
                .map(ConsumerRecord::value)
                .filter(e -> e.getDeploymentId().equals(DemoScenario.KIMI_BASELINE)))
        .allMatch(e -> !e.getSpecEnabled() && e.getCycleMs() > 10 && e.getCycleMs() < 15);
  }

  private static double meanVerify(List<DecodeEvent> events, String contextId) {
    return events.stream()
        .filter(e -> contextId.equals(e.getRunContextId()))
        .mapToDouble(DecodeEvent::getVerifyMs)
        .average()
        .orElseThrow();
  }
}
