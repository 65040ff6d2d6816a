package io.specwatch.sink.bench;

import static io.specwatch.sink.bench.BenchData.table;
import static io.specwatch.sink.bench.BenchData.write;

import io.specwatch.sink.rows.DecodeEventRows;
import io.specwatch.sink.rows.RowMapping;
import io.specwatch.sink.rows.WindowResultRows;
import java.io.BufferedWriter;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * The baseline of every comparison: the rows written once to a TSV file, inserted by {@code
 * clickhouse-client ... FORMAT TSV} (native code) into a fresh database right before each measured
 * path.
 */
final class ClientBaseline {

  private final BenchTarget target;

  ClientBaseline(BenchTarget target) {
    this.target = target;
  }

  Path tsvFile(RowMapping<?> m, List<? extends SpecificRecord> rows) throws Exception {
    Path file = target.work.resolve(table(m) + ".tsv");
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      TsvWriter w = new TsvWriter(out);
      for (int i = 0; i < rows.size(); i++) {
        write(m, rows.get(i), i, w);
        w.endRow();
      }
    }
    return file;
  }

  /** The baseline: clickhouse-client inserting the TSV file; returns rows/s. */
  double tsv(String db, String table, Map<String, Path> files, Map<String, Integer> counts)
      throws Exception {
    RowMapping<?> m =
        table.equals("decode_events") ? new DecodeEventRows() : new WindowResultRows();
    File file = files.get(table).toFile();
    String query =
        "INSERT INTO " + db + "." + table + " (" + String.join(", ", m.columns()) + ") FORMAT TSV";
    long t0 = System.nanoTime();
    Process p =
        new ProcessBuilder("clickhouse-client", "--port", target.tcpPort, "--query", query)
            .redirectInput(file)
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("clickhouse-client failed: " + output);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    target.check(db, table, counts.get(table));
    double rate = counts.get(table) / seconds;
    System.out.printf(
        "  %-22s %-15s %6.2f s  %9.0f rows/s  (%.1f MB TSV)%n",
        "clickhouse-client TSV", table, seconds, rate, file.length() / 1e6);
    return rate;
  }
}
