package io.specwatch.sink.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The dashboard's JSON API on known rows in the real ClickHouse: exact bodies. */
class DashboardIT {

  private static final long T0216 = 1773454560L; // 2026-03-14T02:16:00Z
  private static final long T0217 = 1773454620L;
  private static final long T0218 = 1773454680L;
  private static final long T0230 = 1773455400L;
  private static final long T0231 = 1773455460L;

  private static DashboardFixture fx;

  @BeforeAll
  static void start() {
    fx = new DashboardFixture("it_dashboard");
  }

  @AfterAll
  static void stop() {
    if (fx != null) {
      fx.close();
    }
  }

  @Test
  void listsDeploymentsWithWindowCountsAndSpan() {
    HttpResponse<String> r = fx.get("/api/deployments");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.body())
        .isEqualTo(
            "{\"deployments\":["
                + "{\"id\":\"kimi-eagle3\",\"windows\":2,\"first_window\":"
                + T0216
                + ",\"last_window_end\":"
                + T0218
                + "},"
                + "{\"id\":\"llama-eagle3\",\"windows\":1,\"first_window\":"
                + T0230
                + ",\"last_window_end\":"
                + T0231
                + "}]}");
  }

  @Test
  void mergesSlicesCycleWeightedAndGivesTheBelowBaselineVerdict() {
    HttpResponse<String> r = fx.get("/api/windows?deployment=kimi-eagle3");
    assertThat(r.statusCode()).isEqualTo(200);
    // Each window is its total row (the category and bucket rows are not added again, the
    // replayed 02:17 rows count once under FINAL). Range, cycle-weighted: tau (2*100+2.25*400)/500
    // = 2.2, tok/s (60*100+70*400)/500 = 68, S (75+320)/500 = 0.79; position 1 (60+270)/500 = 0.66.
    assertThat(r.body())
        .isEqualTo(
            "{\"deployment\":\"kimi-eagle3\",\"from\":0,\"to\":4294967295,\"truncated\":false,"
                + "\"summary\":{\"windows\":2,\"cycles\":500,\"tau\":2.2,\"tau_star\":2.5,"
                + "\"effective_tok_s\":68,\"baseline_tok_s\":82,\"speedup\":0.79,"
                + "\"verdict\":\"below_baseline\",\"verdict_text\":\"Speculation costs throughput:"
                + " S 0.79 (68.0 vs 82.0 tok/s), \u03c4 2.20 < break-even \u03c4* 2.50\","
                + "\"per_position_range\":[0.66,0.48],\"per_position_latest\":[0.675,0.5]},"
                + "\"windows\":["
                + "{\"t\":"
                + T0216
                + ",\"cycles\":100,\"events\":10,\"late_events\":0,\"tau\":2,\"tau_star\":2.5,"
                + "\"effective_tok_s\":60,\"baseline_tok_s\":82,\"speedup\":0.75,"
                + "\"draft_ms_p50\":2,\"draft_ms_p95\":3,\"draft_ms_p99\":4,"
                + "\"verify_ms_p50\":19,\"verify_ms_p95\":20,\"verify_ms_p99\":22,"
                + "\"cycle_ms_p50\":25,\"cycle_ms_p95\":27,\"cycle_ms_p99\":30,"
                + "\"per_position\":[0.6,0.4]},"
                + "{\"t\":"
                + T0217
                + ",\"cycles\":400,\"events\":40,\"late_events\":1,\"tau\":2.25,\"tau_star\":2.5,"
                + "\"effective_tok_s\":70,\"baseline_tok_s\":82,\"speedup\":0.8,"
                + "\"draft_ms_p50\":2,\"draft_ms_p95\":3,\"draft_ms_p99\":4,"
                + "\"verify_ms_p50\":26.5,\"verify_ms_p95\":27.5,\"verify_ms_p99\":28.75,"
                + "\"cycle_ms_p50\":31,\"cycle_ms_p95\":33,\"cycle_ms_p99\":37.5,"
                + "\"per_position\":[0.675,0.5]}]}");
  }

  @Test
  void aboveBaselineDeploymentGetsThePaysVerdict() {
    String body = fx.get("/api/windows?deployment=llama-eagle3").body();
    assertThat(body)
        .contains(
            "\"verdict\":\"above_baseline\",\"verdict_text\":\"Speculation pays: S 1.68"
                + " (266.0 vs 158.0 tok/s), \u03c4 4.00 \u2265 break-even \u03c4* 2.40\"");
  }

  @Test
  void timeRangeIsHalfOpenAndAcceptsIsoOrEpochSeconds() {
    String iso = fx.get("/api/windows?deployment=kimi-eagle3&from=2026-03-14T02:17:00Z").body();
    String epoch =
        fx.get("/api/windows?deployment=kimi-eagle3&from=" + T0217 + "&to=" + T0218).body();
    assertThat(iso).contains("\"summary\":{\"windows\":1,\"cycles\":400,\"tau\":2.25,");
    assertThat(epoch).contains("\"summary\":{\"windows\":1,\"cycles\":400,\"tau\":2.25,");
    // to is exclusive: [02:16, 02:17) holds only the 02:16 window
    assertThat(fx.get("/api/windows?deployment=kimi-eagle3&from=" + T0216 + "&to=" + T0217).body())
        .contains("\"summary\":{\"windows\":1,\"cycles\":100,");
  }

  @Test
  void alertsOfTheDeploymentInRange() {
    HttpResponse<String> r = fx.get("/api/alerts?deployment=kimi-eagle3");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .isEqualTo(
            "{\"alerts\":["
                + "{\"alert_id\":\"a1\",\"type\":\"SPEC_BELOW_BASELINE\",\"state\":\"RAISED\",\"t\":"
                + T0216
                + ",\"emitted_at\":\"2026-03-14 02:17:00\",\"metric\":\"speedup\",\"observed\":0.75,"
                + "\"reference\":1,\"p_value\":null,\"attributed_change\":null,"
                + "\"message\":\"EAGLE3 below baseline: S 0.75\"},"
                + "{\"alert_id\":\"a2\",\"type\":\"REGRESSION\",\"state\":\"RAISED\",\"t\":"
                + T0217
                + ",\"emitted_at\":\"2026-03-14 02:18:00\",\"metric\":\"verifyMsP50\","
                + "\"observed\":29,\"reference\":19,\"p_value\":0.001,"
                + "\"attributed_change\":\"env NCCL_P2P_LEVEL removed\","
                + "\"message\":\"verify p50 19 -> 29 ms\"}]}");
    assertThat(fx.get("/api/alerts?deployment=kimi-eagle3&from=" + T0217).body())
        .startsWith("{\"alerts\":[{\"alert_id\":\"a2\"")
        .doesNotContain("\"a1\"");
  }

  @Test
  void badParametersAre400AndNamed() {
    HttpResponse<String> missing = fx.get("/api/windows");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.body()).isEqualTo("{\"error\":\"parameter deployment is required\"}");
    HttpResponse<String> badTime = fx.get("/api/alerts?deployment=kimi-eagle3&from=yesterday");
    assertThat(badTime.statusCode()).isEqualTo(400);
    assertThat(badTime.body()).contains("from must be an ISO-8601 instant");
    HttpResponse<String> reversed =
        fx.get("/api/windows?deployment=kimi-eagle3&from=" + T0218 + "&to=" + T0216);
    assertThat(reversed.statusCode()).isEqualTo(400);
    assertThat(reversed.body()).contains("from must be before to");
    assertThat(fx.get("/api/nope").statusCode()).isEqualTo(404);
  }

  @Test
  void aQuoteInTheDeploymentCannotChangeTheQuery() {
    String evil = URLEncoder.encode("x' OR '1'='1", StandardCharsets.UTF_8);
    HttpResponse<String> r = fx.get("/api/windows?deployment=" + evil);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .contains("\"summary\":{\"windows\":0,\"cycles\":0,")
        .contains("\"windows\":[]");
    String backslash = URLEncoder.encode("kimi-eagle3\\' OR 1=1 --", StandardCharsets.UTF_8);
    assertThat(fx.get("/api/alerts?deployment=" + backslash).body()).isEqualTo("{\"alerts\":[]}");
  }

  @Test
  void servesThePageAndTheChartLibraryFromTheJar() {
    HttpResponse<String> page = fx.get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<script src=\"vendor/uPlot.iife.min.js\"></script>");
    HttpResponse<String> lib = fx.get("/vendor/uPlot.iife.min.js");
    assertThat(lib.statusCode()).isEqualTo(200);
    assertThat(lib.body()).contains("uPlot").hasSizeGreaterThan(40_000);
    assertThat(fx.get("/vendor/uPlot.min.css").statusCode()).isEqualTo(200);
    assertThat(fx.get("/app.js").body()).contains("api/windows");
    assertThat(fx.get("/../pom.xml").statusCode()).isEqualTo(404);
  }
}
