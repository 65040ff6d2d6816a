package io.specwatch.streams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resets the streams app for reprocessing, what Kafka's {@code StreamsResetter} does for this
 * topology, with the Admin API only (kafka-tools would bring ~40 jars): refuses while the group has
 * active members; moves the group's committed offsets on the input topics to the earliest offsets
 * (or the first at or after {@code toDatetime}, except on the topics read as tables: the run
 * contexts, whose store is deleted with the rest of the state, are read again from the earliest);
 * deletes the app's internal topics ({@code <application-id>-...-changelog} / {@code
 * -repartition}); deletes the local state directory.
 */
public final class StreamsReset {

  private static final Logger LOG = LoggerFactory.getLogger(StreamsReset.class);

  /** What a reset did. */
  public record Result(Map<TopicPartition, Long> offsets, List<String> deletedTopics) {}

  private StreamsReset() {}

  /**
   * @param inputTopics the topology's source topics (decode events, run contexts)
   * @param tableTopics those of the input topics read into a table (the run contexts): always reset
   *     to the earliest offset, since their store is deleted; moved to toDatetime, the contexts
   *     published before it would be gone and every reprocessed window would have none
   * @param toDatetime null: earliest
   * @param stateDir the app's local state directory, deleted if present (null: none)
   * @throws IllegalStateException when instances of the app are still running
   */
  public static Result reset(
      Admin admin,
      String applicationId,
      List<String> inputTopics,
      Set<String> tableTopics,
      Instant toDatetime,
      Path stateDir,
      Duration waitForMembers)
      throws InterruptedException, ExecutionException {
    Objects.requireNonNull(applicationId, "application-id");
    // a stopped Streams instance does not leave its group: its member expires after
    // session.timeout.ms (45 s by default), so wait that long before refusing
    long deadline = System.nanoTime() + waitForMembers.toNanos();
    int members;
    while ((members = members(admin, applicationId)) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "application-id '"
                + applicationId
                + "' still has "
                + members
                + " active member(s) after "
                + waitForMembers
                + ": stop every instance first");
      }
      Thread.sleep(500);
    }
    Map<TopicPartition, OffsetSpec> query = new HashMap<>();
    Set<String> existing = admin.listTopics().names().get();
    for (var d : admin.describeTopics(inputTopics).allTopicNames().get().values()) {
      for (var p : d.partitions()) {
        query.put(
            new TopicPartition(d.name(), p.partition()),
            toDatetime == null || tableTopics.contains(d.name())
                ? OffsetSpec.earliest()
                : OffsetSpec.forTimestamp(toDatetime.toEpochMilli()));
      }
    }
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found =
        admin.listOffsets(query).all().get();
    Map<TopicPartition, OffsetSpec> latestQuery = new HashMap<>();
    query.keySet().forEach(tp -> latestQuery.put(tp, OffsetSpec.latest()));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> latest =
        admin.listOffsets(latestQuery).all().get();
    Map<TopicPartition, OffsetAndMetadata> target = new HashMap<>();
    Map<TopicPartition, Long> offsets = new HashMap<>();
    for (TopicPartition tp : query.keySet()) {
      long o = found.get(tp).offset();
      if (o < 0) { // no record at or after the time
        o = latest.get(tp).offset();
      }
      target.put(tp, new OffsetAndMetadata(o));
      offsets.put(tp, o);
    }
    admin.alterConsumerGroupOffsets(applicationId, target).all().get();
    List<String> internal = new ArrayList<>();
    for (String t : existing) {
      if (t.startsWith(applicationId + "-")
          && (t.endsWith("-changelog") || t.endsWith("-repartition"))) {
        internal.add(t);
      }
    }
    if (!internal.isEmpty()) {
      // forget the group's offsets on them too: the recreated topics start at 0 again
      Set<TopicPartition> stale = new HashSet<>();
      admin
          .listConsumerGroupOffsets(applicationId)
          .partitionsToOffsetAndMetadata()
          .get()
          .keySet()
          .forEach(
              tp -> {
                if (internal.contains(tp.topic())) {
                  stale.add(tp);
                }
              });
      if (!stale.isEmpty()) {
        admin.deleteConsumerGroupOffsets(applicationId, stale).all().get();
      }
      admin.deleteTopics(internal).all().get();
    }
    if (stateDir != null) {
      deleteRecursively(stateDir.resolve(applicationId));
    }
    LOG.info(
        "reset application-id={} offsets={} deleted internal topics={} state={}",
        applicationId,
        offsets,
        internal,
        stateDir);
    return new Result(offsets, internal);
  }

  private static int members(Admin admin, String group)
      throws InterruptedException, ExecutionException {
    try {
      ConsumerGroupDescription d =
          admin.describeConsumerGroups(List.of(group)).all().get().get(group);
      return d == null ? 0 : d.members().size();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return 0;
      }
      throw e;
    }
  }

  private static void deleteRecursively(Path dir) {
    try {
      Utils.delete(dir.toFile()); // nothing to do when it does not exist
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete state directory " + dir, e);
    }
  }
}
