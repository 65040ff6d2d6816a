package io.specwatch.streams;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the app's input and output topics when missing (Kafka Streams fails on a missing source
 * topic). Existing topics are left as they are. Broker default replication factor.
 */
final class TopicBootstrap {
  private static final Logger LOG = LoggerFactory.getLogger(TopicBootstrap.class);

  private TopicBootstrap() {}

  static void ensureTopics(Properties kafka, List<String> topics, int partitions)
      throws InterruptedException {
    try (Admin admin = Admin.create(kafka)) {
      for (String topic : topics) {
        try {
          admin
              .createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())))
              .all()
              .get();
          LOG.info("created topic {} with {} partition(s)", topic, partitions);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("cannot create topic " + topic, e.getCause());
          }
        }
      }
    }
  }
}
