package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.specwatch.runtime.Readiness;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SinkMetersTest {

  @Test
  void countsInsertsAndDeadLettersAndIsReadyWhileAssigned() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Readiness readiness = new Readiness();
    SinkMeters meters = new SinkMeters(registry, readiness, "db");
    List<TopicPartition> tps = List.of(new TopicPartition("t", 0));

    assertThat(readiness.status().ready()).isFalse();
    meters.assigned(tps);
    assertThat(readiness.status().ready()).isTrue();
    meters.revoked(tps);
    assertThat(readiness.status().ready()).isFalse();
    assertThat(readiness.status().reason()).contains("rebalancing");
    meters.assigned(List.of());
    assertThat(readiness.status().ready()).as("a member without partitions serves").isTrue();

    meters.inserted("window_results", 100, TimeUnit.MILLISECONDS.toNanos(20));
    meters.inserted("window_results", 50, TimeUnit.MILLISECONDS.toNanos(40));
    meters.inserted("decode_events", 7, TimeUnit.MILLISECONDS.toNanos(5));
    meters.deadLettered("decode_events", "sink.insert");

    assertThat(
            registry
                .get("specwatch.sink.rows.inserted")
                .tag("table", "db.window_results")
                .counter()
                .count())
        .isEqualTo(150.0);
    assertThat(
            registry
                .get("specwatch.sink.batches")
                .tag("table", "db.window_results")
                .counter()
                .count())
        .isEqualTo(2.0);
    assertThat(
            registry
                .get("specwatch.sink.rows.inserted")
                .tag("table", "db.decode_events")
                .counter()
                .count())
        .isEqualTo(7.0);
    assertThat(
            registry
                .get("specwatch.sink.dead.letters")
                .tag("table", "db.decode_events")
                .tag("stage", "sink.insert")
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(
            registry.get("specwatch.sink.insert").tag("table", "db.window_results").timer().count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("specwatch.sink.insert")
                .tag("table", "db.window_results")
                .timer()
                .totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(60.0);

    meters.clickHouseUnavailable("code -1: connection refused");
    assertThat(readiness.status().ready()).isFalse();
    assertThat(readiness.status().reason()).contains("ClickHouse unavailable");
    assertThat(registry.get("specwatch.sink.clickhouse.unavailable").counter().count())
        .isEqualTo(1.0);
    meters.clickHouseRecovered();
    assertThat(readiness.status().ready()).isTrue();
  }

  @Test
  void gaugesShowTheLastReportedBufferAndPause() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    SinkMeters meters = new SinkMeters(registry, new Readiness(), "db");
    assertThat(registry.get("specwatch.sink.buffered.rows").gauge().value()).isZero();
    assertThat(registry.get("specwatch.sink.paused").gauge().value()).isZero();

    meters.buffered(412, true);
    assertThat(registry.get("specwatch.sink.buffered.rows").gauge().value()).isEqualTo(412.0);
    assertThat(registry.get("specwatch.sink.paused").gauge().value()).isEqualTo(1.0);
    meters.buffered(0, false);
    assertThat(registry.get("specwatch.sink.buffered.rows").gauge().value()).isZero();
    assertThat(registry.get("specwatch.sink.paused").gauge().value()).isZero();
  }
}
