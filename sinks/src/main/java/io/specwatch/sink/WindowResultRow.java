package io.specwatch.sink;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.specwatch.schemas.WindowResult;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Maps one {@link WindowResult} (plus where it came from in Kafka) to one JSONEachRow line of
 * {@code window_results}. Column names are the snake_case field names of V001. Times are written as
 * {@code yyyy-MM-dd HH:mm:ss} in UTC (columns are {@code DateTime('UTC')}, second precision: window
 * bounds are whole minutes). Non-finite doubles in Nullable columns become NULL.
 */
public final class WindowResultRow {

  public static final String TABLE = "window_results";

  private static final JsonFactory JSON = JsonFactory.builder().build();
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private WindowResultRow() {}

  /** Where the record was read. */
  public record Source(String topic, int partition, long offset) {}

  /** Writes one JSON object and a newline. */
  public static void write(OutputStream out, WindowResult w, Source source, Instant insertedAt) {
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      g.writeStartObject();
      g.writeStringField("deployment_id", w.getDeploymentId());
      g.writeStringField("prompt_category", w.getPromptCategory());
      g.writeStringField("batch_bucket", w.getBatchBucket());
      g.writeStringField("window_start", dateTime(w.getWindowStart()));
      g.writeStringField("window_end", dateTime(w.getWindowEnd()));
      g.writeNumberField("events", w.getEvents());
      g.writeNumberField("cycles", w.getCycles());
      g.writeNumberField("requests", w.getRequests());
      g.writeNumberField("spec_enabled", w.getSpecEnabled() ? 1 : 0);
      nullable(g, "mean_accept_length", w.getMeanAcceptLength());
      nullable(g, "accept_length_p50", w.getAcceptLengthP50());
      nullable(g, "accept_length_p95", w.getAcceptLengthP95());
      nullable(g, "accept_rate", w.getAcceptRate());
      g.writeNumberField("accepted_tokens", w.getAcceptedTokens());
      g.writeNumberField("drafted_tokens", w.getDraftedTokens());
      array(g, "per_position_acceptance", w.getPerPositionAcceptance());
      array(g, "per_position_conditional", w.getPerPositionConditional());
      nullable(g, "draft_ms_p50", w.getDraftMsP50());
      nullable(g, "draft_ms_p95", w.getDraftMsP95());
      nullable(g, "draft_ms_p99", w.getDraftMsP99());
      nullable(g, "verify_ms_p50", w.getVerifyMsP50());
      nullable(g, "verify_ms_p95", w.getVerifyMsP95());
      nullable(g, "verify_ms_p99", w.getVerifyMsP99());
      nullable(g, "cycle_ms_p50", w.getCycleMsP50());
      nullable(g, "cycle_ms_p95", w.getCycleMsP95());
      nullable(g, "cycle_ms_p99", w.getCycleMsP99());
      nullable(g, "mean_cycle_ms", w.getMeanCycleMs());
      nullable(g, "effective_tok_s_per_request", w.getEffectiveTokSPerRequest());
      nullable(g, "batch_tok_s", w.getBatchTokS());
      nullable(g, "mean_batch_size", w.getMeanBatchSize());
      nullable(g, "baseline_step_ms", w.getBaselineStepMs());
      nullable(g, "baseline_tok_s", w.getBaselineTokS());
      nullableString(g, "baseline_source", w.getBaselineSource());
      nullable(g, "speedup", w.getSpeedup());
      nullable(g, "break_even_accept_length", w.getBreakEvenAcceptLength());
      nullable(g, "accept_margin", w.getAcceptMargin());
      nullableString(g, "run_context_id", w.getRunContextId());
      g.writeNumberField("late_events", w.getLateEvents());
      g.writeStringField("kafka_topic", source.topic());
      g.writeNumberField("kafka_partition", source.partition());
      g.writeNumberField("kafka_offset", source.offset());
      g.writeStringField("inserted_at", dateTime(insertedAt));
      g.writeEndObject();
      g.flush();
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String dateTime(Instant instant) {
    return DATE_TIME.format(instant);
  }

  private static void nullable(JsonGenerator g, String name, Double value) throws IOException {
    if (value == null || !Double.isFinite(value)) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, value);
    }
  }

  private static void nullableString(JsonGenerator g, String name, String value)
      throws IOException {
    if (value == null) {
      g.writeNullField(name);
    } else {
      g.writeStringField(name, value);
    }
  }

  private static void array(JsonGenerator g, String name, List<Double> values) throws IOException {
    g.writeArrayFieldStart(name);
    for (Double v : values) {
      // Array(Float64) has no NULL: a missing or non-finite share is written as nan.
      if (v == null || !Double.isFinite(v)) {
        g.writeString("nan");
      } else {
        g.writeNumber(v);
      }
    }
    g.writeEndArray();
  }
}
