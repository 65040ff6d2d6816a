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
    SinkMeters meters = new SinkMeters(registry, readiness, "db.window_results");
    List<TopicPartition> tps = List.of(new TopicPartition("t", 0));

    assertThat(readiness.status().ready()).isFalse();
    meters.assigned(tps);
    assertThat(readiness.status().ready()).isTrue();
    meters.revoked(tps);
    assertThat(readiness.status().ready()).isFalse();
    assertThat(readiness.status().reason()).contains("rebalancing");
    meters.assigned(List.of());
    assertThat(readiness.status().ready()).as("a member without partitions serves").isTrue();

    meters.inserted(100, TimeUnit.MILLISECONDS.toNanos(20));
    meters.inserted(50, TimeUnit.MILLISECONDS.toNanos(40));
    meters.deadLettered();

    assertThat(
            registry
                .get("specwatch.sink.rows.inserted")
                .tag("table", "db.window_results")
                .counter()
                .count())
        .isEqualTo(150.0);
    assertThat(registry.get("specwatch.sink.batches").counter().count()).isEqualTo(2.0);
    assertThat(registry.get("specwatch.sink.dead.letters").counter().count()).isEqualTo(1.0);
    assertThat(registry.get("specwatch.sink.insert").timer().count()).isEqualTo(2);
    assertThat(registry.get("specwatch.sink.insert").timer().totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(60.0);
  }
}
