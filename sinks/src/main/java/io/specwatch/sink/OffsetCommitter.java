package io.specwatch.sink;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's offset commits: per assigned partition, the offset before which every record is in
 * ClickHouse or a flushed dead letter (the position the buffers reflect when its table holds
 * nothing, else the positions its acknowledged batches covered), committed only when it moved; and
 * where a partition is rewound to when its buffered rows are dropped (its last commit, else the
 * first offset read). Used on the polling thread.
 */
final class OffsetCommitter {

  // the sink's logger, as before this class had its own file: the log lines read the same
  private static final Logger log = LoggerFactory.getLogger(ClickHouseSink.class);

  private final Consumer<String, byte[]> consumer;
  private final Map<String, TableLoader<?>> byTopic;
  private final DeadLetters deadLetters;
  private final PollEncoder encoded;

  private final Map<TopicPartition, Long> committed = new HashMap<>();
  private final Map<TopicPartition, Long> firstSeen = new HashMap<>();
  private long commits;
  private long commitTimeouts;

  OffsetCommitter(
      Consumer<String, byte[]> consumer,
      Map<String, TableLoader<?>> byTopic,
      DeadLetters deadLetters,
      PollEncoder encoded) {
    this.consumer = consumer;
    this.byTopic = byTopic;
    this.deadLetters = deadLetters;
    this.encoded = encoded;
  }

  /** Offset commits that went through. */
  long commits() {
    return commits;
  }

  /**
   * Notes the first offset read of {@code record}'s partition (where a rewind goes uncommitted).
   */
  void read(ConsumerRecord<?, ?> record) {
    firstSeen.putIfAbsent(new TopicPartition(record.topic(), record.partition()), record.offset());
  }

  /**
   * Commits, for every assigned partition whose table has nothing buffered, the consumer's position
   * (past every record read, control records of transactions included). Dead letters are flushed
   * first.
   */
  void commitSafe() {
    try {
      commitSafeOnce();
    } catch (WakeupException e) {
      // stop() woke the consumer while committing: the wakeup is spent, commit again.
      commitSafeOnce();
    }
  }

  private void commitSafeOnce() {
    if (deadLetters.pending() > 0) {
      deadLetters.flush();
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition tp : consumer.assignment()) {
      TableLoader<?> l = byTopic.get(tp.topic());
      if (l == null) {
        continue;
      }
      Long safe;
      if (l.bufferEmpty() && !l.hasSending()) {
        safe = encoded.position(tp);
      } else {
        safe = l.acked(tp);
      }
      if (safe == null) {
        continue;
      }
      Long last = committed.get(tp);
      if (last == null || last.longValue() != safe.longValue()) {
        offsets.put(tp, new OffsetAndMetadata(safe));
      }
    }
    if (offsets.isEmpty()) {
      return;
    }
    try {
      consumer.commitSync(offsets);
      offsets.forEach((tp, o) -> committed.put(tp, o.offset()));
      commits++;
    } catch (CommitFailedException | RebalanceInProgressException e) {
      log.warn(
          "Offset commit refused during a rebalance; the next owner re-reads them: {}",
          e.toString());
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      // the broker is away (restart, outage): the rows are in ClickHouse, the offsets stay
      // uncommitted and the next commit carries them; a crash meanwhile re-reads them, and the
      // replay is idempotent (batch identity, natural keys)
      commitTimeouts++;
      log.warn(
          "Offset commit timed out ({} so far); it is retried with the next commit: {}",
          commitTimeouts,
          e.toString());
    }
  }

  /**
   * The buffered rows were dropped: moves the partitions in {@code keep} back to their last
   * committed offset (or the first offset read, if none), so they are read again, and forgets the
   * commits of the partitions {@code gone}.
   */
  void rewind(Set<TopicPartition> keep, Collection<TopicPartition> gone) {
    for (TopicPartition tp : keep) {
      Long to = committed.containsKey(tp) ? committed.get(tp) : firstSeen.get(tp);
      if (to != null) {
        consumer.seek(tp, to);
      }
    }
    firstSeen.clear();
    for (TopicPartition tp : gone) {
      committed.remove(tp);
    }
  }

  /** Forgets {@code tp} (revoked: it moved to another member). */
  void forget(TopicPartition tp) {
    committed.remove(tp);
    firstSeen.remove(tp);
  }
}
