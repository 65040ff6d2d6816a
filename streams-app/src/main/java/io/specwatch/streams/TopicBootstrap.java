package io.specwatch.streams;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the app's topics when missing (Kafka Streams fails on a missing source topic) and checks
 * that the run-context topic is co-partitioned with the input. Existing topics are left as they
 * are. Broker default replication factor.
 *
 * <p>Output topics are created with {@code message.timestamp.type=LogAppendTime}: a window result
 * carries its event time (the window end, possibly months old in a replay), and with CreateTime the
 * broker's time retention would delete such records at its next check. Consumers read event time
 * from the payload. The run-context topic is compacted and gets the input's partition count.
 */
final class TopicBootstrap {
  private static final Logger LOG = LoggerFactory.getLogger(TopicBootstrap.class);

  /** Topic settings of output topics. */
  static final Map<String, String> OUTPUT_TOPIC_CONFIG =
      Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");

  /** Topic settings of the run-context topic. */
  static final Map<String, String> RUN_CONTEXT_TOPIC_CONFIG =
      Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);

  private TopicBootstrap() {}

  /** Creates the missing topics of {@code config}. */
  static void ensureTopics(StreamsAppConfig config, int partitions) throws InterruptedException {
    try (Admin admin = Admin.create(config.kafkaProperties())) {
      create(
          admin,
          new NewTopic(config.decodeEventsTopic(), Optional.of(partitions), Optional.empty()));
      int input = partitions(admin, config.decodeEventsTopic());
      create(
          admin,
          new NewTopic(config.runContextTopic(), Optional.of(input), Optional.empty())
              .configs(RUN_CONTEXT_TOPIC_CONFIG));
      create(
          admin,
          new NewTopic(config.windowResultsTopic(), Optional.of(partitions), Optional.empty())
              .configs(OUTPUT_TOPIC_CONFIG));
      // a dead letter of a processing failure may carry the event's (old) time: append time too
      create(
          admin,
          new NewTopic(config.deadLetterTopic(), Optional.of(1), Optional.empty())
              .configs(OUTPUT_TOPIC_CONFIG));
      create(
          admin,
          new NewTopic(config.alertsTopic(), Optional.of(1), Optional.empty())
              .configs(OUTPUT_TOPIC_CONFIG));
    }
  }

  /**
   * Fails naming both topics unless the run-context topic has as many partitions as the input: the
   * window rows read the run context of their deployment from the same task.
   */
  static void requireCopartitioned(StreamsAppConfig config) throws InterruptedException {
    try (Admin admin = Admin.create(config.kafkaProperties())) {
      int input = partitions(admin, config.decodeEventsTopic());
      int contexts = partitions(admin, config.runContextTopic());
      if (input != contexts) {
        throw new IllegalStateException(
            "run-context-topic "
                + config.runContextTopic()
                + " has "
                + contexts
                + " partitions but decode-events-topic "
                + config.decodeEventsTopic()
                + " has "
                + input
                + ": they must be co-partitioned (same count, both keyed by deploymentId)");
      }
    }
  }

  private static int partitions(Admin admin, String topic) throws InterruptedException {
    try {
      TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
      return d.partitions().size();
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot describe topic " + topic + ": " + e.getCause(), e);
    }
  }

  static void createTopics(Properties kafka, List<NewTopic> topics) throws InterruptedException {
    try (Admin admin = Admin.create(kafka)) {
      for (NewTopic t : topics) {
        create(admin, t);
      }
    }
  }

  private static void create(Admin admin, NewTopic topic) throws InterruptedException {
    try {
      admin.createTopics(List.of(topic)).all().get();
      LOG.info(
          "created topic {} with {} partition(s) {}",
          topic.name(),
          topic.numPartitions(),
          topic.configs());
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("cannot create topic " + topic.name(), e.getCause());
      }
    }
  }
}
