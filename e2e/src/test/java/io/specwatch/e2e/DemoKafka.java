package io.specwatch.e2e;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka admin steps of {@link DemoPipeline}: creating its topics, and reading streams-app's
 * committed offsets to tell when a run has consumed everything and settled.
 */
final class DemoKafka {

  private DemoKafka() {}

  static void createTopics(
      String bootstrap, List<String> names, int partitions, Map<String, String> configs)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      List<NewTopic> topics = new ArrayList<>();
      for (String name : names) {
        topics.add(new NewTopic(name, partitions, (short) 1).configs(configs));
      }
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    }
  }

  /** The group's committed offsets reached the end of every partition. */
  static boolean consumedAll(String bootstrap, String group, List<TopicPartition> tps)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      tps.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
      var ends = admin.listOffsets(latest).all().get();
      for (TopicPartition tp : tps) {
        OffsetAndMetadata c = committed.get(tp);
        long end = ends.get(tp).offset();
        // an empty partition (more partitions than deployments) never gets a committed offset
        if (end > 0 && (c == null || c.offset() < end)) {
          return false;
        }
      }
      return true;
    }
  }

  /** Committed offsets of a group, every partition it committed. */
  static Map<TopicPartition, Long> committed(String bootstrap, String group) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<TopicPartition, Long> out = new HashMap<>();
      admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get()
          .forEach((tp, o) -> out.put(tp, o == null ? -1L : o.offset()));
      return out;
    }
  }
}
