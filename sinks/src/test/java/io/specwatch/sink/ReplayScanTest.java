package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The per-record decision of a replay and what it counts. */
class ReplayScanTest {

  private static final Instant FROM = Instant.parse("2026-03-14T10:00:00Z");
  private static final Instant TO = Instant.parse("2026-03-14T11:00:00Z");
  private static final long APPENDED = Instant.parse("2026-05-02T08:30:00Z").toEpochMilli();

  private static ConsumerRecord<String, byte[]> stamped(long offset, long timestamp) {
    return new ConsumerRecord<>(
        "window-results",
        0,
        offset,
        timestamp,
        org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME,
        0,
        0,
        "dep",
        new byte[0],
        new org.apache.kafka.common.header.internals.RecordHeaders(),
        Optional.empty());
  }

  @Test
  void countsScannedAndSelectedRecords() {
    ReplayScan scan = new ReplayScan(ReplayRange.eventTime(FROM, TO));
    assertThat(scan.select(stamped(0, APPENDED), FROM.minusSeconds(60))).isFalse();
    assertThat(scan.select(stamped(1, APPENDED), FROM)).isTrue();
    assertThat(scan.select(stamped(2, APPENDED), TO.minusSeconds(60))).isTrue();
    assertThat(scan.select(stamped(3, APPENDED), TO)).isFalse();
    // undecodable: stamped outside the range, so not dead-lettered again
    assertThat(scan.select(stamped(4, APPENDED), null)).isFalse();
    assertThat(scan.stats()).isEqualTo(new ReplayStats(5, 2, 0, Duration.ZERO));
  }

  @Test
  void reportsEventTimesRunningAheadOfTheirStampsBeyondTheAllowance() {
    ReplayScan scan =
        new ReplayScan(
            new ReplayRange(
                FROM, TO, ReplayRange.By.EVENT_TIME, Duration.ofMinutes(10), Optional.empty()));
    long stamp = FROM.toEpochMilli();
    // 10 min ahead: allowed; 25 and 40 min ahead (a clock or --log-zone off): reported
    assertThat(scan.select(stamped(0, stamp), FROM.plusSeconds(600))).isTrue();
    assertThat(scan.select(stamped(1, stamp), FROM.plusSeconds(1500))).isTrue();
    assertThat(scan.select(stamped(2, stamp), FROM.plusSeconds(2400))).isTrue();
    ReplayStats stats = scan.stats();
    assertThat(stats.skewExceeded()).isEqualTo(2);
    assertThat(stats.largestLead()).isEqualTo(Duration.ofMinutes(40));
    assertThat(stats.selected()).isEqualTo(3);
  }
}
