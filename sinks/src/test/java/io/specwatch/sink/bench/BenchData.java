package io.specwatch.sink.bench;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import io.specwatch.schemas.WindowResult;
import io.specwatch.sink.rows.ColumnWriter;
import io.specwatch.sink.rows.DecodeEventRows;
import io.specwatch.sink.rows.RowMapping;
import io.specwatch.sink.rows.WindowResultRows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.specific.SpecificRecord;

/**
 * The benchmark's generated decode events and window results (fixed seeds), and how every insert
 * path writes one of them as a row (the same source offsets and insert time for all paths).
 */
final class BenchData {

  private static final Instant BASE = Instant.parse("2026-03-14T00:00:00Z");
  private static final Instant INSERTED = Instant.parse("2026-03-15T00:00:00Z");

  private BenchData() {}

  static String table(RowMapping<?> m) {
    return m instanceof DecodeEventRows ? DecodeEventRows.TABLE : WindowResultRows.TABLE;
  }

  private static RowMapping.Source source(int i) {
    return new RowMapping.Source("bench", i % 3, i / 3);
  }

  @SuppressWarnings("unchecked")
  static <V extends SpecificRecord> void write(
      RowMapping<V> m, Object value, int i, ColumnWriter w) {
    m.write((V) value, source(i), INSERTED, w);
  }

  static List<DecodeEvent> events(int n) {
    SplittableRandom r = new SplittableRandom(42);
    List<DecodeEvent> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double tau = 1.0 + r.nextDouble() * 2.5;
      long cycles = 40L * (1 + r.nextInt(16));
      Map<String, String> raw = new LinkedHashMap<>();
      raw.put("#running-req", Long.toString(cycles / 40));
      raw.put("accept len", String.format(Locale.ROOT, "%.2f", tau));
      raw.put(
          "gen throughput (token/s)", String.format(Locale.ROOT, "%.2f", 60 + r.nextDouble() * 30));
      out.add(
          DecodeEvent.newBuilder()
              .setEventId(String.format("%032x", i))
              .setDeploymentId("kimi-eagle3-" + (i % 8))
              .setHost("gpu-" + (i % 16))
              .setSource("/var/log/sglang/server.log")
              .setSourceOffset(512L * i)
              .setLineNumber((long) i + 1)
              .setEngine(Engine.SGLANG)
              .setFormat("sglang.decode_batch")
              .setKind(EventKind.INTERVAL)
              .setEventTime(BASE.plusMillis(250L * i))
              .setIngestTime(BASE.plusMillis(250L * i + 40))
              .setRank("TP0")
              .setTpRank(0)
              .setDecodePasses(40L)
              .setCycles(cycles)
              .setRunningRequests((int) (cycles / 40))
              .setTokenUsage(r.nextDouble())
              .setAcceptLength(tau)
              .setAcceptRate((tau - 1) / 2)
              .setGenThroughputTokS(60 + r.nextDouble() * 30)
              .setCycleMs(28 + r.nextDouble() * 4)
              .setCudaGraph(true)
              .setRawFields(raw)
              .build());
    }
    return out;
  }

  static List<WindowResult> windows(int n) {
    SplittableRandom r = new SplittableRandom(7);
    List<WindowResult> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double tau = 1.0 + r.nextDouble() * 2.5;
      out.add(
          WindowResult.newBuilder()
              .setDeploymentId("kimi-eagle3-" + (i % 8))
              .setPromptCategory(i % 3 == 0 ? "code" : "chat")
              .setBatchBucket("*")
              .setWindowStart(BASE.plusSeconds(60L * (i / 8)))
              .setWindowEnd(BASE.plusSeconds(60L * (i / 8) + 60))
              .setEvents(100 + r.nextInt(100))
              .setCycles(4000 + r.nextInt(4000))
              .setMeanAcceptLength(tau)
              .setAcceptLengthP50(tau)
              .setAcceptRate((tau - 1) / 2)
              .setPerPositionAcceptance(List.of(0.7, 0.4, 0.2))
              .setPerPositionConditional(List.of(0.7, 0.57, 0.5))
              .setCycleMsP50(30.0)
              .setCycleMsP95(34.0)
              .setMeanCycleMs(30.4)
              .setEffectiveTokSPerRequest(1000 * tau / 30.4)
              .setBaselineStepMs(12.2)
              .setBaselineTokS(82.0)
              .setBaselineSource("static:kimi-plain")
              .setSpeedup(tau * 12.2 / 30.4)
              .setBreakEvenAcceptLength(30.4 / 12.2)
              .build());
    }
    return out;
  }
}
