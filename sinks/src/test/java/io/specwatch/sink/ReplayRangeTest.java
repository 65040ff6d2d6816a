package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which offsets a replay scans and which scanned records it loads. */
class ReplayRangeTest {

  private static final Instant FROM = Instant.parse("2026-03-14T10:00:00Z");
  private static final Instant TO = Instant.parse("2026-03-14T11:00:00Z");
  private static final long NOW = Instant.parse("2026-05-02T08:30:00Z").toEpochMilli();

  private static ReplayRange byEvent(Duration skew, Duration delay) {
    return new ReplayRange(FROM, TO, ReplayRange.By.EVENT_TIME, skew, Optional.ofNullable(delay));
  }

  @Test
  void byEventTimeLoadsTheRowsWhoseOwnTimeIsInTheRangeWhateverTheirRecordTime() {
    ReplayRange r = ReplayRange.eventTime(FROM, TO);
    // appended today (LogAppendTime), windows of March: the event time decides
    assertThat(r.selects(NOW, FROM)).isTrue();
    assertThat(r.selects(NOW, TO.minusMillis(1))).isTrue();
    assertThat(r.selects(NOW, TO)).isFalse();
    assertThat(r.selects(NOW, FROM.minusMillis(1))).isFalse();
    // stamped inside the range, but its own time is not
    assertThat(r.selects(FROM.plusSeconds(60).toEpochMilli(), TO.plusSeconds(60))).isFalse();
  }

  @Test
  void anUnreadableEventTimeFallsBackToTheRecordTime() {
    ReplayRange r = ReplayRange.eventTime(FROM, TO);
    assertThat(r.selects(FROM.toEpochMilli(), null)).isTrue();
    assertThat(r.selects(TO.toEpochMilli() - 1, null)).isTrue();
    assertThat(r.selects(TO.toEpochMilli(), null)).isFalse();
    assertThat(r.selects(NOW, null)).isFalse();
  }

  @Test
  void byRecordTimeTheEventTimeIsIgnored() {
    ReplayRange r = ReplayRange.recordTime(FROM, TO);
    assertThat(r.selects(FROM.toEpochMilli(), Instant.EPOCH)).isTrue();
    assertThat(r.selects(TO.toEpochMilli() - 1, TO.plusSeconds(3600))).isTrue();
    assertThat(r.selects(TO.toEpochMilli(), FROM)).isFalse();
    assertThat(r.selects(FROM.toEpochMilli() - 1, FROM)).isFalse();
    assertThat(r.seekTimestamp()).isEqualTo(FROM.toEpochMilli());
    assertThat(r.stopTimestamp()).hasValue(TO.toEpochMilli());
    assertThat(r.skewExcessMillis(0, TO)).isZero();
  }

  @Test
  void byEventTimeTheScanStartsMaxClockSkewEarlyAndRunsToTheEndUnlessADelayBoundsIt() {
    ReplayRange r = ReplayRange.eventTime(FROM, TO);
    assertThat(r.maxClockSkew()).isEqualTo(Duration.ofHours(1));
    assertThat(r.seekTimestamp()).isEqualTo(FROM.minusSeconds(3600).toEpochMilli());
    assertThat(r.stopTimestamp()).isEmpty();

    ReplayRange bounded = byEvent(Duration.ZERO, Duration.ofDays(2));
    assertThat(bounded.seekTimestamp()).isEqualTo(FROM.toEpochMilli());
    assertThat(bounded.stopTimestamp()).hasValue(TO.plus(Duration.ofDays(2)).toEpochMilli());
  }

  @Test
  void aSkewReachingBeforeTheEpochSeeksToTheBeginningAndAHugeDelayMeansNoStop() {
    assertThat(byEvent(Duration.ofDays(365 * 100), null).seekTimestamp()).isZero();
    assertThat(
            new ReplayRange(
                    Instant.EPOCH.plusSeconds(10),
                    TO,
                    ReplayRange.By.EVENT_TIME,
                    Duration.ofSeconds(10),
                    Optional.empty())
                .seekTimestamp())
        .isZero();
    assertThat(byEvent(Duration.ZERO, Duration.ofMillis(Long.MAX_VALUE)).stopTimestamp()).isEmpty();
  }

  @Test
  void spanOfAPartition() {
    // start and stop found
    assertThat(ReplayRange.span(5L, 9L, 20)).isEqualTo(new ReplayRange.Span(5, 9));
    // no stop timestamp (or no record stamped that late): the end offset at assignment
    assertThat(ReplayRange.span(5L, null, 20)).isEqualTo(new ReplayRange.Span(5, 20));
    // nothing stamped at or after the seek time: nothing to read
    assertThat(ReplayRange.span(null, null, 20)).isEqualTo(new ReplayRange.Span(20, 20));
    assertThat(ReplayRange.span(null, 9L, 20)).isEqualTo(new ReplayRange.Span(9, 9));
    // never past the end offset (read_committed: the last stable offset), never start > stop
    assertThat(ReplayRange.span(25L, 30L, 20)).isEqualTo(new ReplayRange.Span(20, 20));
    assertThat(ReplayRange.span(12L, 9L, 20)).isEqualTo(new ReplayRange.Span(9, 9));
  }

  @Test
  void skewExcessIsHowFarAnEventTimeRunsAheadOfItsStampBeyondTheAllowance() {
    ReplayRange r = byEvent(Duration.ofMinutes(5), null);
    long stamp = FROM.toEpochMilli();
    assertThat(r.skewExcessMillis(stamp, FROM.minusSeconds(3600))).isZero(); // usual: behind
    assertThat(r.skewExcessMillis(stamp, FROM.plusSeconds(300))).isZero(); // at the allowance
    assertThat(r.skewExcessMillis(stamp, FROM.plusSeconds(301))).isEqualTo(1000);
    assertThat(r.skewExcessMillis(stamp, null)).isZero();
  }

  @Test
  void badInputFailsNamingTheOption() {
    assertThatThrownBy(() -> ReplayRange.eventTime(TO, FROM))
        .hasMessageContaining("--from must be before --to");
    assertThatThrownBy(() -> ReplayRange.eventTime(FROM, FROM))
        .hasMessageContaining("--from must be before --to");
    assertThatThrownBy(() -> ReplayRange.eventTime(Instant.parse("1969-12-31T23:59:59Z"), TO))
        .hasMessageContaining("--from must not be before 1970");
    assertThatThrownBy(() -> ReplayRange.eventTime(FROM, Instant.MAX))
        .hasMessageContaining("--to is out of range");
    assertThatThrownBy(() -> byEvent(Duration.ofSeconds(-1), null))
        .hasMessageContaining("--max-clock-skew must not be negative");
    assertThatThrownBy(() -> byEvent(Duration.ZERO, Duration.ofSeconds(-1)))
        .hasMessageContaining("--max-delay must not be negative");
    assertThatThrownBy(() -> byEvent(Duration.ofSeconds(Long.MAX_VALUE), null))
        .hasMessageContaining("--max-clock-skew is out of range");
    assertThatThrownBy(
            () ->
                new ReplayRange(
                    FROM,
                    TO,
                    ReplayRange.By.RECORD_TIME,
                    Duration.ZERO,
                    Optional.of(Duration.ofHours(1))))
        .hasMessageContaining("--max-delay");
    assertThatThrownBy(() -> ReplayRange.By.parse("arrival"))
        .hasMessageContaining("--by")
        .hasMessageContaining("event-time or record-time");
    assertThat(ReplayRange.By.parse(" Record-Time ")).isEqualTo(ReplayRange.By.RECORD_TIME);
    assertThat(ReplayRange.By.parse("event_time")).isEqualTo(ReplayRange.By.EVENT_TIME);
  }
}
