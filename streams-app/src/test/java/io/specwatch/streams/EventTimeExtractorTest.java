package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class EventTimeExtractorTest {
  private static final Instant T = Instant.parse("2026-12-02T07:00:00Z");
  private static final long FIFTEEN_MIN = 15 * 60_000L;

  private static DecodeEvent event(long eventAheadOfIngestMs) {
    return TestEvents.event("dep-a", 0)
        .setIngestTime(T)
        .setEventTime(T.plusMillis(eventAheadOfIngestMs))
        .build();
  }

  private static ConsumerRecord<Object, Object> record(Object value, long recordTimestamp) {
    return new ConsumerRecord<>(
        "in",
        0,
        7L,
        recordTimestamp,
        org.apache.kafka.common.record.TimestampType.CREATE_TIME,
        0,
        0,
        "dep-a",
        value,
        new org.apache.kafka.common.header.internals.RecordHeaders(),
        java.util.Optional.empty());
  }

  @Test
  void anEventAtMostTheBoundAheadKeepsItsEventTime() {
    EventTimeExtractor x = new EventTimeExtractor(FIFTEEN_MIN);
    long partitionTime = T.toEpochMilli() - 1000;
    assertThat(x.extract(record(event(0), 1), partitionTime)).isEqualTo(T.toEpochMilli());
    assertThat(x.extract(record(event(FIFTEEN_MIN), 1), partitionTime))
        .isEqualTo(T.toEpochMilli() + FIFTEEN_MIN);
    assertThat(x.extract(record(event(-3_600_000), 1), partitionTime))
        .as("behind its ingest time (a replayed old log) is fine")
        .isEqualTo(T.toEpochMilli() - 3_600_000);
  }

  @Test
  void anEventFurtherAheadKeepsThePartitionTime() {
    EventTimeExtractor x = new EventTimeExtractor(FIFTEEN_MIN);
    long partitionTime = T.toEpochMilli() - 1000;
    assertThat(x.extract(record(event(FIFTEEN_MIN + 1), 1), partitionTime))
        .isEqualTo(partitionTime);
    assertThat(x.extract(record(event(8 * 3_600_000L), 42L), -1))
        .as("no partition time yet: the record's own timestamp")
        .isEqualTo(42L);
    assertThat(EventTimeExtractor.tooFarAhead(event(FIFTEEN_MIN + 1), FIFTEEN_MIN)).isTrue();
    assertThat(EventTimeExtractor.tooFarAhead(event(FIFTEEN_MIN), FIFTEEN_MIN)).isFalse();
  }

  @Test
  void zeroSwitchesTheCheckOffAndNegativesAreRejected() {
    assertThat(new EventTimeExtractor(0).extract(record(event(8 * 3_600_000L), 1), 5))
        .isEqualTo(T.toEpochMilli() + 8 * 3_600_000L);
    assertThat(new EventTimeExtractor().extract(record(event(8 * 3_600_000L), 1), 5))
        .isEqualTo(T.toEpochMilli() + 8 * 3_600_000L);
    assertThat(EventTimeExtractor.tooFarAhead(event(8 * 3_600_000L), 0)).isFalse();
    assertThatThrownBy(() -> new EventTimeExtractor(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aTombstoneKeepsThePartitionTime() {
    EventTimeExtractor x = new EventTimeExtractor(FIFTEEN_MIN);
    assertThat(x.extract(record(null, 9), 1234)).isEqualTo(1234);
    assertThat(x.extract(record(null, 9), -1)).isEqualTo(9);
  }
}
