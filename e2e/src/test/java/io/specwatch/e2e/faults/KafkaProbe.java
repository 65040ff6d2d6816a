package io.specwatch.e2e.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.serde.WireFormat;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a fault scenario observes on the broker of a {@link FaultPipeline}: records in a topic,
 * registry schema ids of a deployment's records, the streams-app's consumer group (members, who
 * owns a partition) and the sink's committed offsets.
 */
final class KafkaProbe {

  private final FaultPipeline pipeline;

  KafkaProbe(FaultPipeline pipeline) {
    this.pipeline = pipeline;
  }

  /** Records in a (non-transactional) topic: sum over partitions of end minus start offset. */
  long records(String topic) throws Exception {
    try (Admin admin = pipeline.admin()) {
      int partitions =
          admin
              .describeTopics(List.of(topic))
              .allTopicNames()
              .get(30, TimeUnit.SECONDS)
              .get(topic)
              .partitions()
              .size();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
      for (int p = 0; p < partitions; p++) {
        latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        earliest.put(new TopicPartition(topic, p), OffsetSpec.earliest());
      }
      long end =
          admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
              .mapToLong(i -> i.offset())
              .sum();
      long start =
          admin.listOffsets(earliest).all().get(30, TimeUnit.SECONDS).values().stream()
              .mapToLong(i -> i.offset())
              .sum();
      return end - start;
    }
  }

  /**
   * The registry schema id of every record of {@code deployment} (the record key) in {@code topic},
   * read from the start to the current end: schema id to records.
   */
  Map<Integer, Long> schemaIds(String topic, String deployment) {
    Map<String, Object> props =
        Map.of("bootstrap.servers", pipeline.bootstrap, "isolation.level", "read_committed");
    Map<Integer, Long> ids = new TreeMap<>();
    try (var c =
        new KafkaConsumer<byte[], byte[]>(
            props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      c.partitionsFor(topic).forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      byte[] key = deployment.getBytes(StandardCharsets.UTF_8);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
        assertThat(System.nanoTime()).as("reading " + topic + " to its end").isLessThan(deadline);
        for (var r : c.poll(Duration.ofMillis(500))) {
          if (Arrays.equals(r.key(), key)) {
            ids.merge(WireFormat.readSchemaId(topic, ByteBuffer.wrap(r.value())), 1L, Long::sum);
          }
        }
      }
    }
    return ids;
  }

  /** Members of the streams-app's consumer group when it is stable, else -1. */
  int streamsMembers() throws Exception {
    var d = describeStreamsGroup();
    return d.groupState() == GroupState.STABLE ? d.members().size() : -1;
  }

  /**
   * The streams member ({@code streams-1} / {@code streams-2}) whose consumer is assigned the
   * decode-events partition the deployment's records are in (read from decode_events). Waits up to
   * two minutes for a stable group in which a member owns it: between the two rounds of a
   * cooperative rebalance (a member joined) the moved partitions belong to nobody.
   */
  String ownerOfDeployment(String deployment) throws Exception {
    int partition =
        Integer.parseInt(
            pipeline
                .query(
                    "SELECT any(kafka_partition) FROM "
                        + pipeline.database
                        + ".decode_events WHERE deployment_id = '"
                        + deployment
                        + "'")
                .strip());
    TopicPartition tp = new TopicPartition(pipeline.events, partition);
    String[] owner = new String[1];
    Await.until(
        "a streams member owning " + tp + " in a stable group",
        Duration.ofMinutes(2),
        () -> (owner[0] = stableOwner(tp)) != null,
        () -> "group: " + describeStreamsGroup());
    return owner[0];
  }

  /** The member owning {@code tp} if the group is stable and one does, else null. */
  private String stableOwner(TopicPartition tp) throws Exception {
    var d = describeStreamsGroup();
    if (d.groupState() != GroupState.STABLE) {
      return null;
    }
    for (var m : d.members()) {
      if (m.assignment().topicPartitions().contains(tp)) {
        for (String member : pipeline.streamsMemberNames()) {
          if (m.clientId().startsWith(pipeline.appId + "-" + member + "-")) {
            return member;
          }
        }
      }
    }
    return null;
  }

  private ConsumerGroupDescription describeStreamsGroup() throws Exception {
    String appId = pipeline.appId;
    try (Admin admin = pipeline.admin()) {
      return admin
          .describeConsumerGroups(List.of(appId))
          .all()
          .get(30, TimeUnit.SECONDS)
          .get(appId);
    }
  }

  /** Waits until the sink's committed offsets reach the end of the events topic. */
  void awaitSinkCaughtUp(Duration timeout) {
    Await.until(
        "the sink committed every decode event",
        timeout,
        () -> {
          pipeline.assertAppsAlive();
          try (Admin admin = pipeline.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                admin
                    .listConsumerGroupOffsets(pipeline.sinkGroup())
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < 3; p++) {
              latest.put(new TopicPartition(pipeline.events, p), OffsetSpec.latest());
            }
            var ends = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            for (var e : ends.entrySet()) {
              var c = committed.get(e.getKey());
              if (e.getValue().offset() > 0 && (c == null || c.offset() < e.getValue().offset())) {
                return false;
              }
            }
            return true;
          }
        });
  }
}
