package io.specwatch.sink.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.migrate.Migration;
import io.specwatch.sink.migrate.MigrationLoader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** Every mapping writes exactly its table's columns, in DDL order, in both formats. */
public class RowMappingsTest {

  static final Instant T = Instant.parse("2026-03-14T02:16:05.250Z");
  static final Instant INSERTED = Instant.parse("2026-03-14T02:18:05Z");
  static final RowMapping.Source SOURCE = new RowMapping.Source("specwatch.x.v1", 3, 42L);

  public static WindowResult window() {
    return WindowResult.newBuilder()
        .setDeploymentId("kimi-eagle3")
        .setPromptCategory("chat")
        .setBatchBucket("2-4")
        .setWindowStart(Instant.parse("2026-03-14T02:16:00Z"))
        .setWindowEnd(Instant.parse("2026-03-14T02:17:00Z"))
        .setEvents(12)
        .setCycles(480)
        .setMeanAcceptLength(2.0)
        .setAcceptRate(0.5)
        .setPerPositionAcceptance(List.of(0.7, 0.3))
        .setMeanCycleMs(Double.NaN)
        .setBaselineSource("static:kimi \"8xPCIe\"")
        .build();
  }

  public static DecodeEvent decodeEvent(String id, Instant time) {
    return DecodeEvent.newBuilder()
        .setEventId(id)
        .setDeploymentId("kimi-eagle3")
        .setHost("gpu-1")
        .setSource("/var/log/sglang.log")
        .setSourceOffset(1024L)
        .setLineNumber(17L)
        .setEngine(Engine.SGLANG)
        .setFormat("sglang.decode_batch")
        .setKind(EventKind.INTERVAL)
        .setEventTime(time)
        .setIngestTime(time.plusSeconds(1))
        .setRank("TP0")
        .setTpRank(0)
        .setCycles(480L)
        .setRunningRequests(12)
        .setAcceptLength(2.0)
        .setPerPositionAcceptance(List.of(0.7, 0.3))
        .setPerPositionAccepted(List.of(7L, 3L))
        .setVerifyMs(28.96)
        .setCudaGraph(true)
        .setRawFields(Map.of("accept len", "2.00", "#running-req", "12"))
        .build();
  }

  public static RequestAcceptance request(String id) {
    return RequestAcceptance.newBuilder()
        .setEventId(id)
        .setRequestId("req-" + id)
        .setDeploymentId("kimi-eagle3")
        .setHost("gpu-1")
        .setSource("/var/log/requests.jsonl")
        .setEngine(Engine.SGLANG)
        .setFinishedAt(T)
        .setPromptHash("ab12")
        .setPromptCategory("code")
        .setModel("Kimi-K2.5")
        .setDraftModelVersion("eagle3-v2")
        .setOutputTokens(200)
        .setVerifyCycles(100)
        .setAcceptedTokens(100L)
        .setDraftedTokens(300L)
        .setAcceptLength(2.0)
        .setAcceptHistogram(List.of(30L, 40L, 30L))
        .build();
  }

  public static Alert alert(String id) {
    return Alert.newBuilder()
        .setAlertId(id)
        .setDeploymentId("kimi-eagle3")
        .setType(AlertType.SPEC_BELOW_BASELINE)
        .setState(AlertState.RAISED)
        .setWindowStart(Instant.parse("2026-03-14T02:16:00Z"))
        .setEmittedAt(Instant.parse("2026-03-14T02:17:00Z"))
        .setMetric("speedup")
        .setObserved(0.73)
        .setReference(1.0)
        .setMessage("EAGLE3 at 60 tok/s below the 82 tok/s baseline")
        .setEvidence(Map.of("tau", "2.0", "tau_star", "2.46"))
        .build();
  }

  public static RunContext context(String id) {
    return RunContext.newBuilder()
        .setContextId(id)
        .setDeploymentId("kimi-eagle3")
        .setObservedAt(T)
        .setEngine(Engine.SGLANG)
        .setEngineVersion("0.5.4")
        .setModel("Kimi-K2.5")
        .setSpecMethod("EAGLE3")
        .setNumSteps(2)
        .setTopk(1)
        .setTp(8)
        .setCudaGraph(false)
        .setEnv(Map.of("NCCL_P2P_LEVEL", "NVL", "NCCL_IB_DISABLE", "1"))
        .build();
  }

  static Map<String, SpecificRecord> samples() {
    return Map.of(
        "window_results", window(),
        "decode_events", decodeEvent("e1", T),
        "request_acceptance", request("r1"),
        "alerts", alert("a1"),
        "run_contexts", context("c1"));
  }

  static Map<String, RowMapping<? extends SpecificRecord>> mappings() {
    return Map.of(
        "window_results", new WindowResultRows(),
        "decode_events", new DecodeEventRows(),
        "request_acceptance", new RequestAcceptanceRows(),
        "alerts", new AlertRows(),
        "run_contexts", new RunContextRows());
  }

  @SuppressWarnings("unchecked")
  static <V extends SpecificRecord> void write(
      RowMapping<V> mapping, SpecificRecord value, ColumnWriter out) {
    mapping.write((V) value, SOURCE, INSERTED, out);
  }

  /**
   * The table's columns in order after every migration (CREATE TABLE, then ADD COLUMN ... AFTER).
   */
  static List<String> ddlColumns(String table) {
    List<String> columns = null;
    Pattern add =
        Pattern.compile(
            "ALTER TABLE db\\." + table + " ADD COLUMN ([a-z_0-9]+) .* AFTER ([a-z_0-9]+)");
    for (Migration m : MigrationLoader.loadDefault()) {
      for (String statement : m.statements("db", SqlDialect.LEGACY)) {
        if (statement.startsWith("CREATE TABLE IF NOT EXISTS db." + table + "\n")) {
          columns = new ArrayList<>();
          Matcher column = Pattern.compile("(?m)^\\s+([a-z_0-9]+) [A-Z]").matcher(statement);
          while (column.find()) {
            columns.add(column.group(1));
          }
        }
        Matcher alter = add.matcher(statement);
        if (columns != null && alter.find()) {
          columns.add(columns.indexOf(alter.group(2)) + 1, alter.group(1));
        }
      }
    }
    if (columns == null) {
      throw new AssertionError("no DDL for " + table);
    }
    return columns;
  }

  @Test
  void everyMappingWritesItsTableColumnsInDdlOrder() {
    mappings()
        .forEach(
            (table, mapping) -> {
              ColumnRecorder recorder = new ColumnRecorder();
              write(mapping, samples().get(table), recorder);
              assertThat(recorder.names()).as(table).isEqualTo(mapping.columns());
              assertThat(mapping.columns()).as(table).isEqualTo(ddlColumns(table));
            });
  }

  @Test
  void everyAvroFieldHasAColumn() {
    assertThat(new WindowResultRows().columns())
        .hasSize(WindowResult.getClassSchema().getFields().size() + 4);
    // + event_time_ms, raw_fields as two arrays (+1), provenance (+4)
    assertThat(new DecodeEventRows().columns())
        .hasSize(DecodeEvent.getClassSchema().getFields().size() + 6);
    assertThat(new RequestAcceptanceRows().columns())
        .hasSize(RequestAcceptance.getClassSchema().getFields().size() + 6);
    assertThat(new AlertRows().columns()).hasSize(Alert.getClassSchema().getFields().size() + 5);
    assertThat(new RunContextRows().columns())
        .hasSize(RunContext.getClassSchema().getFields().size() + 6);
  }

  private static String json(RowMapping<? extends SpecificRecord> mapping, SpecificRecord value) {
    ByteSink sink = new ByteSink(256);
    JsonEachRowWriter w = new JsonEachRowWriter(sink);
    w.startRow();
    write(mapping, value, w);
    w.endRow();
    return new String(sink.copy(0, sink.size()), StandardCharsets.UTF_8);
  }

  @Test
  void windowResultAsJsonEachRow() {
    String line = json(new WindowResultRows(), window());
    assertThat(line).endsWith("}\n").doesNotContain("\n{");
    assertThat(line)
        .contains("\"deployment_id\":\"kimi-eagle3\"")
        .contains("\"window_start\":\"2026-03-14 02:16:00\"")
        .contains("\"events\":12")
        .contains("\"spec_enabled\":1")
        .contains("\"mean_accept_length\":2.0")
        .contains("\"accept_length_p50\":null")
        .contains("\"mean_cycle_ms\":null")
        .contains("\"per_position_acceptance\":[0.7,0.3]")
        .contains("\"baseline_source\":\"static:kimi \\\"8xPCIe\\\"\"")
        .contains("\"kafka_partition\":3")
        .contains("\"kafka_offset\":42")
        .contains("\"inserted_at\":\"2026-03-14 02:18:05\"");
  }

  @Test
  void eventTimeIsEachTablesOwnTimeColumn() {
    Instant minute = Instant.parse("2026-03-14T02:16:00Z");
    // the window's start, not its end (02:17); the alert's window start, not emittedAt (02:17);
    // the decode event's time, not its ingest time (T + 1 s)
    assertThat(new WindowResultRows().eventTime(window())).isEqualTo(minute);
    assertThat(new AlertRows().eventTime(alert("a1"))).isEqualTo(minute);
    assertThat(new DecodeEventRows().eventTime(decodeEvent("e1", T))).isEqualTo(T);
    assertThat(new RequestAcceptanceRows().eventTime(request("r1"))).isEqualTo(T);
    assertThat(new RunContextRows().eventTime(context("c1"))).isEqualTo(T);
    // ... and it is what the table's time column (its partition key) holds
    assertThat(json(new WindowResultRows(), window()))
        .contains("\"window_start\":\"2026-03-14 02:16:00\"");
    assertThat(json(new AlertRows(), alert("a1")))
        .contains("\"window_start\":\"2026-03-14 02:16:00\"");
    assertThat(json(new DecodeEventRows(), decodeEvent("e1", T)))
        .contains("\"event_time_ms\":" + T.toEpochMilli());
    assertThat(json(new RequestAcceptanceRows(), request("r1")))
        .contains("\"finished_at_ms\":" + T.toEpochMilli());
  }

  @Test
  void mapsBecomeSortedParallelArrays() {
    String line = json(new RunContextRows(), context("c1"));
    assertThat(line)
        .contains("\"env_keys\":[\"NCCL_IB_DISABLE\",\"NCCL_P2P_LEVEL\"]")
        .contains("\"env_values\":[\"1\",\"NVL\"]")
        .contains("\"extra_keys\":[]")
        .contains("\"cuda_graph\":0");
    assertThat(json(new DecodeEventRows(), decodeEvent("e1", T)))
        .contains("\"event_time\":\"2026-03-14 02:16:05\"")
        .contains("\"event_time_ms\":" + T.toEpochMilli())
        .contains("\"engine\":\"SGLANG\"")
        .contains("\"kind\":\"INTERVAL\"")
        .contains("\"per_position_accepted\":[7,3]");
  }

  @Test
  void rowBinaryEncoding() {
    ByteSink sink = new ByteSink(16);
    RowBinaryWriter w = new RowBinaryWriter(sink);
    w.string("s", "é");
    w.nullableString("n", null);
    w.nullableInt32("i", 258);
    w.nullableFloat64("f", Double.POSITIVE_INFINITY);
    w.dateTime("d", Instant.ofEpochSecond(0x01020304L));
    w.int64Array("a", List.of(1L));
    w.bool("b", true);
    assertThat(sink.copy(0, sink.size()))
        .containsExactly(
            2,
            (byte) 0xC3,
            (byte) 0xA9, // varint length 2, UTF-8 é
            1, // NULL
            0,
            2,
            1,
            0,
            0, // not null, 258 LE
            1, // non-finite -> NULL
            4,
            3,
            2,
            1, // UInt32 LE
            1,
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            0, // one Int64
            1);
    ByteSink big = new ByteSink(4);
    new RowBinaryWriter(big).string("s", "x".repeat(300));
    assertThat(big.copy(0, 2)).containsExactly((byte) 0xAC, 0x02); // LEB128 of 300
  }

  @Test
  void dateTimeMsColumnsAreMillisecondsOnModernServersOnly() {
    Instant t = Instant.ofEpochMilli(0x0102030405L);
    ByteSink legacy = new ByteSink(16);
    new RowBinaryWriter(legacy, false).dateTimeMs("inserted_at", t);
    assertThat(legacy.copy(0, legacy.size())).hasSize(4); // UInt32 seconds
    ByteSink modern = new ByteSink(16);
    new RowBinaryWriter(modern, true).dateTimeMs("inserted_at", t);
    assertThat(modern.copy(0, modern.size())).containsExactly(5, 4, 3, 2, 1, 0, 0, 0); // Int64 ms
    ByteSink text = new ByteSink(64);
    JsonEachRowWriter json = new JsonEachRowWriter(text, true);
    json.startRow();
    json.dateTimeMs("inserted_at", Instant.parse("2026-03-14T02:18:05.250Z"));
    json.endRow();
    assertThat(new String(text.copy(0, text.size()), StandardCharsets.UTF_8))
        .contains("\"inserted_at\":\"2026-03-14 02:18:05.250\"");
  }

  @Test
  void timesOutsideDateTimeRangeArePoisonNotGarbage() {
    DecodeEvent tooLate = decodeEvent("e2", Instant.parse("2200-01-01T00:00:00Z"));
    assertThatThrownBy(
            () -> write(new DecodeEventRows(), tooLate, new RowBinaryWriter(new ByteSink(64))))
        .isInstanceOf(RowMappingException.class)
        .hasMessageContaining("event_time")
        .hasMessageContaining("2200-01-01");
    assertThatThrownBy(() -> json(new DecodeEventRows(), tooLate))
        .isInstanceOf(RowMappingException.class);
  }
}
