package io.specwatch.sink.sqlcheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.migrate.Migration;
import io.specwatch.sink.migrate.MigrationLoader;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.rows.AlertRows;
import io.specwatch.sink.rows.ByteSink;
import io.specwatch.sink.rows.DecodeEventRows;
import io.specwatch.sink.rows.RequestAcceptanceRows;
import io.specwatch.sink.rows.RowBinaryWriter;
import io.specwatch.sink.rows.RowMapping;
import io.specwatch.sink.rows.RowMappingsTest;
import io.specwatch.sink.rows.RowTranscoder;
import io.specwatch.sink.rows.RunContextRows;
import io.specwatch.sink.rows.WindowResultRows;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RowBinary bytes the sink writes for a modern server ({@code DateTime64(3)} as Int64
 * milliseconds, LowCardinality as its inner type) decode to the right values in a modern engine:
 * rows of all five tables, encoded as the sink encodes them (decode_events and window_results by
 * {@link RowTranscoder} from Avro bytes, the others by their {@link RowMapping}), written to files
 * and loaded into the MODERN rendering of the migrations in chdb (ClickHouse 26.x) with {@code
 * INSERT INTO t (columns) SELECT * FROM file(path, 'RowBinary')} (structure from the table), then
 * read back with exact values. The legacy encoding (UInt32 seconds) of the same rows does not load
 * into the modern table as the same rows: the check can tell the dialects apart.
 */
class ModernRowBinaryIT {

  private static final String DB = "it_rowbinary_modern";
  private static final Instant INSERTED = Instant.parse("2026-03-15T00:00:00.123Z");
  private static final Instant T = Instant.parse("2026-03-14T02:16:05.250Z");

  @Test
  void modernRowBinaryOfEveryTableDecodesToTheRowsValuesInChdb(@TempDir Path dir) {
    List<Statement> statements = new ArrayList<>(modernSchema());
    // The rows' fixed 2026-03 times are past the modern tables' TTLs (decode_events 90 days,
    // window_results and request_acceptance 400), and a modern server drops expired rows as it
    // writes the part: without the TTLs the check does not depend on today's date.
    for (String table : List.of("decode_events", "window_results", "request_acceptance")) {
      statements.add(
          Statement.exec("no TTL " + table, "ALTER TABLE " + DB + "." + table + " REMOVE TTL"));
    }
    load(
        statements,
        dir,
        "decode_events",
        new DecodeEventRows(),
        transcoded(
            "decode_events",
            List.of(
                RowMappingsTest.decodeEvent("e1", T),
                RowMappingsTest.decodeEvent("e2", T.plusMillis(1_001))),
            true));
    load(
        statements,
        dir,
        "window_results",
        new WindowResultRows(),
        transcoded("window_results", List.of(RowMappingsTest.window()), true));
    load(
        statements,
        dir,
        "alerts",
        new AlertRows(),
        mapped(new AlertRows(), RowMappingsTest.alert("a1"), true));
    load(
        statements,
        dir,
        "request_acceptance",
        new RequestAcceptanceRows(),
        mapped(new RequestAcceptanceRows(), RowMappingsTest.request("r1"), true));
    load(
        statements,
        dir,
        "run_contexts",
        new RunContextRows(),
        mapped(new RunContextRows(), RowMappingsTest.context("c1"), true));
    String decodeSelect =
        "SELECT event_id, deployment_id, event_time, event_time_ms, ingest_time, inserted_at,"
            + " toTypeName(ingest_time) AS ingest_type, toTypeName(deployment_id) AS dep_type,"
            + " cycles, accept_length, verify_ms, per_position_accepted, raw_fields_keys,"
            + " raw_fields_values, kafka_topic, kafka_partition, kafka_offset"
            + " FROM decode_events ORDER BY event_id";
    statements.add(Statement.query("decode_events", decodeSelect));
    statements.add(
        Statement.query(
            "window_results",
            "SELECT deployment_id, prompt_category, batch_bucket, window_start, window_end, events,"
                + " cycles, mean_accept_length, accept_rate, per_position_acceptance, mean_cycle_ms,"
                + " baseline_source, inserted_at, toTypeName(inserted_at) AS inserted_type,"
                + " kafka_offset FROM window_results"));
    statements.add(
        Statement.query(
            "alerts",
            "SELECT alert_id, type, state, window_start, emitted_at, metric, observed, reference,"
                + " evidence_keys, evidence_values, inserted_at FROM alerts"));
    statements.add(
        Statement.query(
            "request_acceptance",
            "SELECT request_id, finished_at, finished_at_ms, prompt_category, model,"
                + " output_tokens, accept_length, inserted_at FROM request_acceptance"));
    statements.add(
        Statement.query(
            "run_contexts",
            "SELECT context_id, observed_at, engine, num_steps, tp, cuda_graph, env_keys,"
                + " env_values, inserted_at FROM run_contexts"));
    // negative control: the legacy (18.16) encoding of the same decode events
    statements.add(
        Statement.exec(
            "legacy table", "CREATE TABLE legacy_decode_events AS " + DB + ".decode_events"));
    Path legacy =
        write(
            dir,
            "decode_events-legacy",
            transcoded(
                "decode_events",
                List.of(
                    RowMappingsTest.decodeEvent("e1", T),
                    RowMappingsTest.decodeEvent("e2", T.plusMillis(1_001))),
                false));
    statements.add(
        Statement.exec(
            "load legacy bytes",
            insertFromFile("legacy_decode_events", new DecodeEventRows(), legacy)));
    statements.add(
        Statement.query(
            "legacy decode_events",
            decodeSelect.replace("FROM decode_events", "FROM legacy_decode_events")));

    List<Outcome> outcomes = new ChdbEngine().run(DB, statements);
    List<String> failed = new ArrayList<>();
    for (Outcome o : outcomes) {
      if (!o.ok() && !o.statement().label().contains("legacy")) {
        failed.add(o.statement().label() + ": " + o.error());
      }
    }
    assertThat(failed).as("chdb: failed statements").isEmpty();

    String decodeEvents = text(outcomes, "decode_events");
    assertThat(decodeEvents)
        .isEqualTo(
            "event_id\tdeployment_id\tevent_time\tevent_time_ms\tingest_time\tinserted_at"
                + "\tingest_type\tdep_type\tcycles\taccept_length\tverify_ms"
                + "\tper_position_accepted\traw_fields_keys\traw_fields_values\tkafka_topic"
                + "\tkafka_partition\tkafka_offset\n"
                + "e1\tkimi-eagle3\t2026-03-14 02:16:05\t1773454565250\t2026-03-14 02:16:06.250"
                + "\t2026-03-15 00:00:00.123\tDateTime64(3, \\'UTC\\')\tLowCardinality(String)"
                + "\t480\t2\t28.96\t[7,3]\t['#running-req','accept len']\t['12','2.00']"
                + "\tit.rowbinary\t2\t100\n"
                + "e2\tkimi-eagle3\t2026-03-14 02:16:06\t1773454566251\t2026-03-14 02:16:07.251"
                + "\t2026-03-15 00:00:00.123\tDateTime64(3, \\'UTC\\')\tLowCardinality(String)"
                + "\t480\t2\t28.96\t[7,3]\t['#running-req','accept len']\t['12','2.00']"
                + "\tit.rowbinary\t2\t101\n");
    // mean_cycle_ms NaN: a nullable column gets NULL for a non-finite value
    assertThat(text(outcomes, "window_results"))
        .isEqualTo(
            "deployment_id\tprompt_category\tbatch_bucket\twindow_start\twindow_end\tevents"
                + "\tcycles\tmean_accept_length\taccept_rate\tper_position_acceptance"
                + "\tmean_cycle_ms\tbaseline_source\tinserted_at\tinserted_type\tkafka_offset\n"
                + "kimi-eagle3\tchat\t2-4\t2026-03-14 02:16:00\t2026-03-14 02:17:00\t12\t480\t2"
                + "\t0.5\t[0.7,0.3]\t\\N\tstatic:kimi \"8xPCIe\"\t2026-03-15 00:00:00.123"
                + "\tDateTime64(3, \\'UTC\\')\t100\n");
    assertThat(text(outcomes, "alerts"))
        .isEqualTo(
            "alert_id\ttype\tstate\twindow_start\temitted_at\tmetric\tobserved\treference"
                + "\tevidence_keys\tevidence_values\tinserted_at\n"
                + "a1\tSPEC_BELOW_BASELINE\tRAISED\t2026-03-14 02:16:00\t2026-03-14 02:17:00.000"
                + "\tspeedup\t0.73\t1\t['tau','tau_star']\t['2.0','2.46']"
                + "\t2026-03-15 00:00:00.123\n");
    assertThat(text(outcomes, "request_acceptance"))
        .isEqualTo(
            "request_id\tfinished_at\tfinished_at_ms\tprompt_category\tmodel\toutput_tokens"
                + "\taccept_length\tinserted_at\n"
                + "req-r1\t2026-03-14 02:16:05\t1773454565250\tcode\tKimi-K2.5\t200\t2"
                + "\t2026-03-15 00:00:00.123\n");
    assertThat(text(outcomes, "run_contexts"))
        .isEqualTo(
            "context_id\tobserved_at\tengine\tnum_steps\ttp\tcuda_graph\tenv_keys\tenv_values"
                + "\tinserted_at\n"
                + "c1\t2026-03-14 02:16:05.250\tSGLANG\t2\t8\t0"
                + "\t['NCCL_IB_DISABLE','NCCL_P2P_LEVEL']\t['1','NVL']\t2026-03-15 00:00:00.123\n");

    Outcome legacyLoad = outcome(outcomes, "load legacy bytes");
    Outcome legacyRead = outcome(outcomes, "legacy decode_events");
    assertThat(!legacyLoad.ok() || !legacyRead.text().equals(decodeEvents))
        .as(
            "the 18.16 encoding (UInt32 seconds) must not load as the same rows: %s / %s",
            legacyLoad.error(), legacyRead.text())
        .isTrue();
  }

  /** The MODERN rendering of every migration, as SqlCompatibilityIT applies it. */
  private static List<Statement> modernSchema() {
    List<Statement> out = new ArrayList<>();
    out.add(Statement.exec("schema_migrations", Migrator.createMigrationsTable(DB)));
    for (Migration m : MigrationLoader.loadDefault()) {
      List<String> rendered = m.statements(DB, SqlDialect.MODERN);
      for (int i = 0; i < rendered.size(); i++) {
        out.add(Statement.exec("V" + m.version() + " statement " + (i + 1), rendered.get(i)));
      }
    }
    return out;
  }

  private static void load(
      List<Statement> statements, Path dir, String table, RowMapping<?> mapping, byte[] rows) {
    Path file = write(dir, table, rows);
    statements.add(Statement.exec("load " + table, insertFromFile(table, mapping, file)));
  }

  private static String insertFromFile(String table, RowMapping<?> mapping, Path file) {
    return "INSERT INTO "
        + DB
        + "."
        + table
        + " ("
        + String.join(", ", mapping.columns())
        + ") SELECT * FROM file('"
        + file.toAbsolutePath()
        + "', 'RowBinary')";
  }

  private static Path write(Path dir, String name, byte[] rows) {
    Path file = dir.resolve(name + ".rowbinary");
    try {
      Files.write(file, rows);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** Avro bytes of each record through the table's transcoder, as the sink's loader does. */
  private static byte[] transcoded(
      String table, List<? extends SpecificRecord> records, boolean millis) {
    RowTranscoder transcoder = RowTranscoder.forTable(table);
    ByteSink sink = new ByteSink(256);
    for (int i = 0; i < records.size(); i++) {
      byte[] avro = avro(records.get(i));
      transcoder.transcode(
          avro,
          0,
          avro.length,
          new RowMapping.Source("it.rowbinary", 2, 100 + i),
          INSERTED,
          sink,
          millis);
    }
    return sink.copy(0, sink.size());
  }

  @SuppressWarnings("unchecked")
  private static <V extends SpecificRecord> byte[] mapped(
      RowMapping<V> mapping, SpecificRecord value, boolean millis) {
    ByteSink sink = new ByteSink(256);
    mapping.write(
        (V) value,
        new RowMapping.Source("it.rowbinary", 0, 7),
        INSERTED,
        new RowBinaryWriter(sink, millis));
    return sink.copy(0, sink.size());
  }

  private static byte[] avro(SpecificRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    try {
      new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static Outcome outcome(List<Outcome> outcomes, String label) {
    return outcomes.stream()
        .filter(o -> o.statement().label().equals(label))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no outcome " + label));
  }

  private static String text(List<Outcome> outcomes, String label) {
    return outcome(outcomes, label).text();
  }
}
