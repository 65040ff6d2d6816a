package io.specwatch.sink.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.sink.HealthHttp;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.testkit.TestPorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The dashboard as {@code sink dashboard --health-port} runs it ({@link DashboardApp} in an {@link
 * AppRuntime}): {@code /health/live}, {@code /health/ready} and {@code /metrics} over HTTP, against
 * the real ClickHouse, and against a ClickHouse that does not answer. (Readiness dropping while a
 * real ClickHouse is stopped and coming back after its restart: {@code ClickHouseOutageIT}.)
 */
class DashboardHealthIT {

  private static final Duration PROBE = Duration.ofMillis(200);

  @Test
  void readyWhileClickHouseAnswersAndRequestsAreCountedByEndpointAndStatus() throws Exception {
    try (DashboardFixture fx = new DashboardFixture("it_dashboard_health");
        AppRuntime app = AppRuntime.start("dashboard", new HealthOptions("127.0.0.1", 0));
        DashboardApp dashboard =
            DashboardApp.start(fx.sql, fx.database, "127.0.0.1", 0, app, PROBE)) {
      int health = app.port().orElseThrow();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> assertThat(get(health, "/health/ready").statusCode()).isEqualTo(200));
      assertThat(get(health, "/health/ready").body())
          .isEqualTo("{\"status\":\"UP\",\"reason\":\"ok\"}");
      assertThat(get(health, "/health/live").statusCode()).isEqualTo(200);

      int page = dashboard.port();
      assertThat(get(page, "/").statusCode()).isEqualTo(200);
      assertThat(get(page, "/api/deployments").body()).contains("\"id\":\"kimi-eagle3\"");
      assertThat(get(page, "/api/deployments").statusCode()).isEqualTo(200);
      assertThat(get(page, "/api/windows").statusCode()).isEqualTo(400);
      assertThat(get(page, "/no/such/page").statusCode()).isEqualTo(404);

      HttpResponse<String> metrics = get(health, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      String m = metrics.body();
      String requests = "specwatch_dashboard_requests_seconds_count";
      assertThat(value(m, requests, "endpoint=\"/api/deployments\"", "status=\"200\""))
          .isEqualTo(2);
      assertThat(value(m, requests, "endpoint=\"/api/windows\"", "status=\"400\"")).isEqualTo(1);
      assertThat(value(m, requests, "endpoint=\"static\"", "status=\"200\"")).isEqualTo(1);
      assertThat(value(m, requests, "endpoint=\"other\"", "status=\"404\"")).isEqualTo(1);
      assertThat(value(m, "specwatch_dashboard_clickhouse_up")).isEqualTo(1);
      assertThat(value(m, "specwatch_dashboard_clickhouse_probe_failures_total")).isZero();
      assertThat(value(m, "jvm_threads_live_threads")).isPositive();
    }
  }

  @Test
  void notReadyWhileClickHouseDoesNotAnswer() throws Exception {
    String deadUrl = "http://127.0.0.1:" + TestPorts.freePort();
    try (ClickHouseSql sql = new ClickHouseSql(ClickHouseConfig.of(deadUrl, "default", "", "x"));
        AppRuntime app = AppRuntime.start("dashboard", new HealthOptions("127.0.0.1", 0));
        DashboardApp dashboard = DashboardApp.start(sql, "x", "127.0.0.1", 0, app, PROBE)) {
      int health = app.port().orElseThrow();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(
                          value(
                              get(health, "/metrics").body(),
                              "specwatch_dashboard_clickhouse_probe_failures_total"))
                      .isGreaterThanOrEqualTo(2));
      HttpResponse<String> ready = get(health, "/health/ready");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body())
          .startsWith("{\"status\":\"DOWN\",\"reason\":\"ClickHouse not answering: ");
      assertThat(get(health, "/health/live").statusCode())
          .as("not answering is not fatal: no restart")
          .isEqualTo(200);
      assertThat(get(dashboard.port(), "/api/deployments").statusCode()).isEqualTo(502);
      String m = get(health, "/metrics").body();
      assertThat(value(m, "specwatch_dashboard_clickhouse_up")).isZero();
      assertThat(
              value(
                  m,
                  "specwatch_dashboard_requests_seconds_count",
                  "endpoint=\"/api/deployments\"",
                  "status=\"502\""))
          .isEqualTo(1);
    }
  }

  static double value(String metrics, String name, String... labels) {
    return HealthHttp.value(metrics, name, labels);
  }

  static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
