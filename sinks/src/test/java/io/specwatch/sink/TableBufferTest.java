package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.sink.rows.DecodeEventRows;
import io.specwatch.sink.rows.RowMappingException;
import io.specwatch.sink.rows.RowMappingsTest;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class TableBufferTest {

  private static final Instant T = Instant.parse("2026-03-14T02:16:05Z");

  private static ConsumerRecord<String, byte[]> record(String topic, int partition, long offset) {
    return new ConsumerRecord<>(topic, partition, offset, "kimi", new byte[] {(byte) offset});
  }

  private static TableBuffer<DecodeEvent> buffer(InsertFormat format) {
    return new TableBuffer<>(SinkTable.DECODE_EVENTS, new DecodeEventRows(), format, false);
  }

  @Test
  void batchIdIsTableAndPerPartitionOffsetRanges() {
    TableBuffer<DecodeEvent> b = buffer(InsertFormat.ROW_BINARY);
    b.add(RowMappingsTest.decodeEvent("a", T), record("t", 1, 40), T);
    b.add(RowMappingsTest.decodeEvent("b", T), record("t", 0, 100), T);
    b.add(RowMappingsTest.decodeEvent("c", T), record("t", 1, 41), T);
    b.add(RowMappingsTest.decodeEvent("d", T), record("t", 0, 105), T);
    assertThat(b.batchId(0, 4)).isEqualTo("decode_events:t-0:100-105,t-1:40-41");
    assertThat(b.batchId(0, 2)).isEqualTo("decode_events:t-0:100-100,t-1:40-40");
    assertThat(b.batchId(2, 4))
        .isEqualTo(b.batchId(2, 4))
        .isEqualTo("decode_events:t-0:105-105,t-1:41-41");
    assertThat(b.origin(3).offset()).isEqualTo(105);
    assertThat(b.origin(3).raw()).containsExactly((byte) 105);
  }

  @Test
  void slicesAreWholeRowsAndAFailedRowLeavesNothingBehind() throws Exception {
    TableBuffer<DecodeEvent> b = buffer(InsertFormat.JSON_EACH_ROW);
    b.add(RowMappingsTest.decodeEvent("a", T), record("t", 0, 1), T);
    int oneRow = b.bytes();
    assertThatThrownBy(
            () ->
                b.add(
                    RowMappingsTest.decodeEvent("bad", Instant.parse("2200-01-01T00:00:00Z")),
                    record("t", 0, 2),
                    T))
        .isInstanceOf(RowMappingException.class);
    assertThat(b.rows()).isEqualTo(1);
    assertThat(b.bytes()).isEqualTo(oneRow);
    b.add(RowMappingsTest.decodeEvent("c", T), record("t", 0, 3), T);
    String second =
        new String(b.body(1, 2).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(second).startsWith("{\"event_id\":\"c\"").endsWith("}\n");
    assertThat(b.bodyBytes(0, 2)).isEqualTo(b.bytes());
    b.clear();
    assertThat(b.isEmpty()).isTrue();
    assertThat(b.bytes()).isZero();
  }
}
