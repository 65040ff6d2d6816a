package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseError;
import io.specwatch.sink.clickhouse.ClickHouseFailure;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's rebalance callbacks (on the polling thread, inside {@code poll}), each after the
 * encode thread finished. Before partitions move to another member, insert and commit what was
 * read; if ClickHouse cannot take it now, drop the buffers uncommitted (the next owner reads them
 * again) and rewind the partitions kept. A replay seeks newly assigned partitions to its span.
 */
final class SinkRebalanceListener implements ConsumerRebalanceListener {

  // the sink's logger, as before this class had its own file: the log lines read the same
  private static final Logger log = LoggerFactory.getLogger(ClickHouseSink.class);

  private final Consumer<String, byte[]> consumer;
  private final Map<String, TableLoader<?>> byTopic;
  private final PollEncoder encoded;
  private final OffsetCommitter offsets;
  private final BatchFlusher flusher;
  private final ReplayScan replay;
  private final SinkListener listener;
  private final Runnable assignedActivity;
  private final BooleanSupplier closing;

  /**
   * {@code replay}: null for the continuous sink. {@code assignedActivity} runs on every assignment
   * (it restarts the sink's idle clock). While {@code closing} holds, revocations and losses do
   * nothing (see {@link ClickHouseSink#close()}).
   */
  SinkRebalanceListener(
      Consumer<String, byte[]> consumer,
      Map<String, TableLoader<?>> byTopic,
      PollEncoder encoded,
      OffsetCommitter offsets,
      BatchFlusher flusher,
      ReplayScan replay,
      SinkListener listener,
      Runnable assignedActivity,
      BooleanSupplier closing) {
    this.consumer = consumer;
    this.byTopic = byTopic;
    this.encoded = encoded;
    this.offsets = offsets;
    this.flusher = flusher;
    this.replay = replay;
    this.listener = listener;
    this.assignedActivity = assignedActivity;
    this.closing = closing;
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    if (closing.getAsBoolean()) {
      return; // the sink is closing: nothing more is inserted or committed (ClickHouseSink.close)
    }
    encoded.await(); // everything polled so far is in the buffers: positions are exact
    encoded.allEncoded();
    if (partitions.isEmpty()) {
      return;
    }
    listener.revoked(partitions);
    try {
      for (TableLoader<?> l : byTopic.values()) {
        l.insertPendingNow();
      }
      offsets.commitSafe();
    } catch (ClickHouseFailure f) {
      if (f.category() == ClickHouseError.Category.FATAL) {
        throw f;
      }
      discardAndRewind(partitions);
    }
    for (TopicPartition tp : partitions) {
      offsets.forget(tp);
      byTopic.get(tp.topic()).forget(tp);
    }
  }

  @Override
  public void onPartitionsLost(Collection<TopicPartition> partitions) {
    if (closing.getAsBoolean()) {
      return;
    }
    encoded.awaitQuietly();
    discardAndRewind(partitions);
  }

  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    encoded.await();
    encoded.allEncoded();
    assignedActivity.run();
    if (replay != null && !partitions.isEmpty()) {
      replay.seek(consumer, partitions);
    }
    if (flusher.paused()) {
      consumer.pause(partitions);
    }
    log.info("Sink assigned {}", partitions);
    listener.assigned(partitions);
  }

  /**
   * Forgets every buffered row and moves the partitions still assigned back to their last committed
   * offset (or the first offset read, if none), so they are read again. Used when partitions are
   * revoked or lost while ClickHouse cannot take the buffers.
   */
  private void discardAndRewind(Collection<TopicPartition> gone) {
    Set<TopicPartition> keep = new HashSet<>(consumer.assignment());
    keep.removeAll(gone);
    int dropped = TableLoader.pendingRows(byTopic.values());
    for (TableLoader<?> l : byTopic.values()) {
      l.discard();
    }
    offsets.rewind(keep, gone);
    flusher.resumeRewound(keep);
    log.warn(
        "Dropped {} uninserted rows (offsets not committed: they are read again) on losing {}",
        dropped,
        gone);
  }
}
