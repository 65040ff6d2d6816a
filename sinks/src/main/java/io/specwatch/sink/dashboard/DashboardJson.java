package io.specwatch.sink.dashboard;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * The API's JSON bodies. Numbers are rounded to 4 decimals (charts need no more, and the bodies
 * stay stable for exact assertions); null metrics are JSON null; times are epoch seconds.
 */
public final class DashboardJson {

  private static final JsonFactory FACTORY = new JsonFactory();

  private DashboardJson() {}

  @FunctionalInterface
  interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  static byte[] render(Body body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code {"deployments":[{"id":..,"windows":..,"first_window":..,"last_window_end":..}]}}. */
  public static byte[] deployments(List<DashboardQueries.Deployment> deployments) {
    return render(
        g -> {
          g.writeStartObject();
          g.writeArrayFieldStart("deployments");
          for (DashboardQueries.Deployment d : deployments) {
            g.writeStartObject();
            g.writeStringField("id", d.id());
            g.writeNumberField("windows", d.windows());
            g.writeNumberField("first_window", d.firstWindow());
            g.writeNumberField("last_window_end", d.lastWindowEnd());
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  /** The series of one deployment over a range, its summary and verdict. */
  public static byte[] windows(
      String deployment,
      TimeRange range,
      boolean truncated,
      WindowSeries.Summary s,
      List<WindowPoint> points) {
    return render(
        g -> {
          g.writeStartObject();
          g.writeStringField("deployment", deployment);
          g.writeNumberField("from", range.fromEpochSecond());
          g.writeNumberField("to", range.toEpochSecond());
          g.writeBooleanField("truncated", truncated);
          g.writeObjectFieldStart("summary");
          g.writeNumberField("windows", s.windows());
          g.writeNumberField("cycles", s.cycles());
          number(g, "tau", s.tau());
          number(g, "tau_star", s.tauStar());
          number(g, "effective_tok_s", s.effectiveTokS());
          number(g, "baseline_tok_s", s.baselineTokS());
          number(g, "speedup", s.speedup());
          g.writeStringField(
              "verdict", s.verdict().kind().name().toLowerCase(java.util.Locale.ROOT));
          g.writeStringField("verdict_text", s.verdict().text());
          numbers(g, "per_position_range", s.perPositionRange());
          numbers(g, "per_position_latest", s.perPositionLatest());
          g.writeEndObject();
          g.writeArrayFieldStart("windows");
          for (WindowPoint p : points) {
            g.writeStartObject();
            g.writeNumberField("t", p.t());
            g.writeNumberField("cycles", p.cycles());
            g.writeNumberField("events", p.events());
            g.writeNumberField("late_events", p.lateEvents());
            number(g, "tau", p.tau());
            number(g, "tau_star", p.tauStar());
            number(g, "effective_tok_s", p.effectiveTokS());
            number(g, "baseline_tok_s", p.baselineTokS());
            number(g, "speedup", p.speedup());
            number(g, "draft_ms_p50", p.draftMsP50());
            number(g, "draft_ms_p95", p.draftMsP95());
            number(g, "draft_ms_p99", p.draftMsP99());
            number(g, "verify_ms_p50", p.verifyMsP50());
            number(g, "verify_ms_p95", p.verifyMsP95());
            number(g, "verify_ms_p99", p.verifyMsP99());
            number(g, "cycle_ms_p50", p.cycleMsP50());
            number(g, "cycle_ms_p95", p.cycleMsP95());
            number(g, "cycle_ms_p99", p.cycleMsP99());
            numbers(g, "per_position", p.perPosition());
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  /** {@code {"alerts":[...]}}. */
  public static byte[] alerts(List<DashboardQueries.Alert> alerts) {
    return render(
        g -> {
          g.writeStartObject();
          g.writeArrayFieldStart("alerts");
          for (DashboardQueries.Alert a : alerts) {
            g.writeStartObject();
            g.writeStringField("alert_id", a.alertId());
            g.writeStringField("type", a.type());
            g.writeStringField("state", a.state());
            g.writeNumberField("t", a.windowStart());
            g.writeStringField("emitted_at", a.emittedAt());
            g.writeStringField("metric", a.metric());
            number(g, "observed", a.observed());
            number(g, "reference", a.reference());
            number(g, "p_value", a.pValue());
            g.writeStringField("attributed_change", a.attributedChange());
            g.writeStringField("message", a.message());
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  /** {@code {"error":"..."}}. */
  public static byte[] error(String message) {
    return render(
        g -> {
          g.writeStartObject();
          g.writeStringField("error", message);
          g.writeEndObject();
        });
  }

  private static void number(JsonGenerator g, String name, Double v) throws IOException {
    g.writeFieldName(name);
    writeNumber(g, v);
  }

  private static void numbers(JsonGenerator g, String name, List<Double> values)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (Double v : values) {
      writeNumber(g, v);
    }
    g.writeEndArray();
  }

  private static void writeNumber(JsonGenerator g, Double v) throws IOException {
    if (v == null || !Double.isFinite(v)) {
      g.writeNull();
    } else {
      g.writeNumber(round(v));
    }
  }

  static BigDecimal round(double v) {
    BigDecimal d = BigDecimal.valueOf(v).setScale(4, RoundingMode.HALF_UP).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0) : d;
  }
}
