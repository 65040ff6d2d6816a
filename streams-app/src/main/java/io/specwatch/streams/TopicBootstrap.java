package io.specwatch.streams;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the app's input and output topics when missing (Kafka Streams fails on a missing source
 * topic). Existing topics are left as they are. Broker default replication factor.
 *
 * <p>Output topics are created with {@code message.timestamp.type=LogAppendTime}: a window result
 * carries its event time (the window end, possibly months old in a replay), and with CreateTime the
 * broker's time retention would delete such records at its next check. Consumers read event time
 * from the payload.
 */
final class TopicBootstrap {
  private static final Logger LOG = LoggerFactory.getLogger(TopicBootstrap.class);

  /** Topic settings of output topics. */
  static final Map<String, String> OUTPUT_TOPIC_CONFIG =
      Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");

  /** Topic settings of compacted input topics (the run-context topic: latest per deployment). */
  static final Map<String, String> COMPACTED_TOPIC_CONFIG =
      Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);

  private TopicBootstrap() {}

  /** Creates missing compacted input topics ({@link #COMPACTED_TOPIC_CONFIG}). */
  static void ensureCompactedTopics(Properties kafka, List<String> topics, int partitions)
      throws InterruptedException {
    try (Admin admin = Admin.create(kafka)) {
      for (String topic : topics) {
        create(
            admin,
            new NewTopic(topic, Optional.of(partitions), Optional.empty())
                .configs(COMPACTED_TOPIC_CONFIG));
      }
    }
  }

  static void ensureTopics(
      Properties kafka, List<String> inputTopics, List<String> outputTopics, int partitions)
      throws InterruptedException {
    try (Admin admin = Admin.create(kafka)) {
      for (String topic : inputTopics) {
        create(admin, new NewTopic(topic, Optional.of(partitions), Optional.empty()));
      }
      for (String topic : outputTopics) {
        create(
            admin,
            new NewTopic(topic, Optional.of(partitions), Optional.empty())
                .configs(OUTPUT_TOPIC_CONFIG));
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
