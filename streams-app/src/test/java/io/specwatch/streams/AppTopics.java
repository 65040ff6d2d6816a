package io.specwatch.streams;

import io.specwatch.streams.alert.AlertConfig;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The topics of one app under test on the shared broker, with unique names, and the app config of
 * the integration tests over them: one-minute windows, 30 s grace, no static baselines, default
 * alerts.
 */
record AppTopics(
    String bootstrap,
    String registry,
    String in,
    String contexts,
    String out,
    String dlq,
    String alerts) {

  /**
   * Creates the topics: the input with {@code partitions}, the rest as the app's own {@link
   * TopicBootstrap} creates them (the run-context topic co-partitioned with the input, one
   * partition for the results, dead letters and alerts).
   */
  static AppTopics create(int partitions) throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    AppTopics t =
        new AppTopics(
            bootstrap,
            SpecwatchContainers.registryUrl(),
            SpecwatchContainers.uniqueName("decode-events"),
            SpecwatchContainers.uniqueName("run-context"),
            SpecwatchContainers.uniqueName("window-results"),
            SpecwatchContainers.uniqueName("dead-letter"),
            SpecwatchContainers.uniqueName("alerts"));
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(t.in, partitions, (short) 1))).all().get();
    }
    TopicBootstrap.ensureTopics(t.config("topic-bootstrap", Path.of("unused"), Map.of()), 1);
    return t;
  }

  /** The app over these topics with Kafka settings {@code kafka} (e.g. a short commit interval). */
  StreamsAppConfig config(String applicationId, Path stateDir, Map<String, String> kafka) {
    return new StreamsAppConfig(
        bootstrap,
        registry,
        applicationId,
        stateDir,
        Duration.ofMinutes(1),
        Duration.ofSeconds(30),
        in,
        contexts,
        out,
        dlq,
        StaticBaselines.none(),
        Duration.ofHours(1),
        kafka,
        alerts,
        AlertConfig.defaults());
  }
}
