package io.specwatch.e2e.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/**
 * A {@code tail} shipper killed with kill -9 while the broker holds records it sent beyond its
 * checkpoint, so that its successor must re-send them.
 *
 * <p>A kill that lands after the shipper caught up with the slow writer, or between an
 * acknowledgement and its checkpoint (tail checkpoints right after each acknowledgement), leaves
 * nothing beyond the checkpoint to re-send (seen in CI, 2026-12-02). So the kill waits until the
 * broker holds records beyond the checkpoint; if it still lands with none (the shipper checkpointed
 * in between), the next shipper gets a fresh backlog, twice as long, and is killed in turn (each
 * restart is itself a kill -9 resume), up to four kills.
 */
final class MidBacklogKill {

  private static final int MAX_KILLS = 4;

  private MidBacklogKill() {}

  /**
   * Writes a backlog of {@code burst} lines, starts the writer ({@code startWriting}, once, after
   * the first backlog), starts a shipper and kills it mid-backlog, until a kill leaves records
   * beyond the checkpoint (asserted). {@code sentBefore}: the events topic's records before the
   * scenario. Returns the writer's future.
   */
  static Future<?> killUntilRecordsBeyondCheckpoint(
      FaultScenario s,
      FaultPipeline pipeline,
      KafkaProbe probe,
      long sentBefore,
      long burst,
      Callable<Future<?>> startWriting)
      throws Exception {
    Future<?> writing = null;
    long inFlightAtKill = 0;
    int kills = 0;
    while (inFlightAtKill == 0 && kills < MAX_KILLS) {
      kills++;
      long from = s.log().offset();
      s.log().metrics((int) burst);
      long size = s.log().offset();
      burst *= 2;
      if (writing == null) {
        writing = startWriting.call();
      }
      long sizeAtKill;
      try (JvmProcess killed =
          pipeline.startShipper(
              "tail-kill9-" + kills, s.dir(), s.log().deployment(), s.checkpoints(), false)) {
        Await.until(
            "shipper a quarter into the backlog",
            Duration.ofMinutes(2),
            () -> s.checkpoint() > from + (size - from) / 4 || !killed.isAlive(),
            10);
        // then as soon as the broker holds records beyond the checkpoint, or at 3/4 of the backlog
        Await.until(
            "records beyond the checkpoint",
            Duration.ofMinutes(1),
            () ->
                probe.records(pipeline.events) - sentBefore
                        > s.log().metricLinesUpTo(s.checkpoint())
                    || s.checkpoint() > from + (size - from) * 3 / 4
                    || !killed.isAlive(),
            0);
        assertThat(killed.isAlive()).as(killed.tail(4000)).isTrue();
        sizeAtKill = s.log().offset();
        assertThat(killed.kill9()).isEqualTo(JvmProcess.SIGKILL_EXIT);
      }
      long killedAt = s.checkpoint();
      // records the broker holds beyond the lines up to the checkpoint: what the next shipper
      // re-sends (the writer's lines since are not read by anyone until then)
      inFlightAtKill =
          probe.records(pipeline.events) - sentBefore - s.log().metricLinesUpTo(killedAt);
      pipeline.record(
          String.format(
              "[faults] %-28s kill %d at checkpoint offset %d of %d bytes written, %d records"
                  + " beyond the checkpoint",
              s.name(), kills, killedAt, sizeAtKill, inFlightAtKill));
    }
    // so the last kill landed mid-file: acknowledged records beyond its checkpoint
    assertThat(inFlightAtKill)
        .as("%d kills, none landed with records beyond the checkpoint", kills)
        .isPositive();
    return writing;
  }
}
