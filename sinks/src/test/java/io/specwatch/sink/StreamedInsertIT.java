package io.specwatch.sink;

import static io.specwatch.sink.SinkItSupport.number;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.clickhouse.data.ClickHouseFormat;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rows.ByteSink;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A RowBinary insert uploaded while its rows are still being appended ({@link StreamedBody}) on the
 * real ClickHouse: finished, it inserts exactly the rows; aborted after most rows went out, it
 * inserts none (the held-back last byte leaves the body ending inside a row).
 */
class StreamedInsertIT {

  private static final int ROWS = 20_000;

  /** Row {@code i}: x UInt64, s String. */
  private static void row(ByteSink out, int i) {
    for (int b = 0; b < 8; b++) {
      out.write((int) ((long) i >>> (8 * b)) & 0xFF);
    }
    byte[] s = ("row-" + i).getBytes(StandardCharsets.UTF_8);
    out.write(s.length); // < 128: one LEB128 byte
    out.write(s, 0, s.length);
  }

  private static CompletableFuture<Long> upload(ClickHouseSql sql, String table, StreamedBody b) {
    return CompletableFuture.supplyAsync(
        () ->
            sql.insert(table, List.of("x", "s"), ClickHouseFormat.RowBinary, b, Optional.empty()));
  }

  @Test
  void aFinishedBodyInsertsEveryRowAndAnAbortedOneNone() throws Exception {
    String db = SpecwatchContainers.uniqueName("it_stream");
    try (ClickHouseSql sql =
        new ClickHouseSql(
            ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db))) {
      sql.execute("CREATE DATABASE IF NOT EXISTS " + db);
      for (String t : List.of("done", "aborted")) {
        sql.execute(
            "CREATE TABLE " + db + "." + t + " (x UInt64, s String) ENGINE = MergeTree ORDER BY x");
      }

      StreamedBody done = new StreamedBody();
      CompletableFuture<Long> finished = upload(sql, db + ".done", done);
      ByteSink rows = new ByteSink(64);
      for (int i = 0; i < ROWS; i++) {
        row(rows, i);
        if (i % 1000 == 999) {
          done.publish(rows.array(), rows.size()); // the array moves as the sink grows
          Thread.sleep(2);
        }
      }
      done.publish(rows.array(), rows.size());
      done.finish();
      finished.get(60, TimeUnit.SECONDS);
      assertThat(number(sql, "SELECT count() FROM " + db + ".done")).isEqualTo(ROWS);
      assertThat(number(sql, "SELECT sum(x) FROM " + db + ".done"))
          .isEqualTo((long) ROWS * (ROWS - 1) / 2);
      assertThat(
              number(
                  sql,
                  "SELECT count() FROM " + db + ".done WHERE s != concat('row-', toString(x))"))
          .isZero();

      StreamedBody cut = new StreamedBody();
      CompletableFuture<Long> aborted = upload(sql, db + ".aborted", cut);
      cut.publish(rows.array(), rows.size());
      Thread.sleep(1000); // everything but the held-back byte is uploaded
      cut.abort();
      assertThatThrownBy(() -> aborted.get(60, TimeUnit.SECONDS))
          .hasCauseInstanceOf(RuntimeException.class);
      Thread.sleep(500);
      assertThat(number(sql, "SELECT count() FROM " + db + ".aborted")).isZero();
    }
  }
}
