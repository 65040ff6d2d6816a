package io.specwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HealthServerTest {

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private PrometheusMeterRegistry registry;
  private Readiness readiness;
  private HealthServer server;

  @BeforeEach
  void start() {
    registry = Metrics.newRegistry("test-app");
    readiness = new Readiness();
    server = HealthServer.start("127.0.0.1", 0, readiness, registry);
  }

  @AfterEach
  void stop() {
    server.close();
    registry.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return send("GET", path);
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(5))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void listensOnAnEphemeralPort() {
    assertThat(server.port()).isPositive();
  }

  @Test
  void readyOnlyWhenTheAppSaysSo() throws Exception {
    HttpResponse<String> starting = get("/health/ready");
    assertThat(starting.statusCode()).isEqualTo(503);
    assertThat(starting.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(starting.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"starting\"}");

    readiness.ready();
    HttpResponse<String> ready = get("/health/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).isEqualTo("{\"status\":\"UP\",\"reason\":\"ok\"}");

    readiness.notReady("rebalancing \"all\"");
    HttpResponse<String> rebalancing = get("/health/ready");
    assertThat(rebalancing.statusCode()).isEqualTo(503);
    assertThat(rebalancing.body()).contains("\"reason\":\"rebalancing \\\"all\\\"\"");
    assertThat(get("/health/live").statusCode()).as("not ready is still live").isEqualTo(200);
  }

  @Test
  void notLiveAfterAFatalStateForGood() throws Exception {
    readiness.ready();
    assertThat(get("/health/live").statusCode()).isEqualTo(200);

    readiness.fatal("stream thread died");
    HttpResponse<String> live = get("/health/live");
    assertThat(live.statusCode()).isEqualTo(503);
    assertThat(live.body()).contains("stream thread died");
    assertThat(get("/health/ready").statusCode()).isEqualTo(503);

    readiness.ready();
    assertThat(get("/health/live").statusCode()).as("fatal is final").isEqualTo(503);
    assertThat(readiness.status().live()).isFalse();
  }

  @Test
  void metricsInPrometheusTextFormatWithRegisteredMetersAndJvmMetrics() throws Exception {
    registry.counter("specwatch.test.rows.inserted").increment(42);

    HttpResponse<String> metrics = get("/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    assertThat(metrics.body())
        .contains("# TYPE specwatch_test_rows_inserted_total counter")
        .contains("specwatch_test_rows_inserted_total{app=\"test-app\"} 42.0")
        .contains("jvm_memory_used_bytes")
        .contains("process_uptime_seconds")
        .contains("jvm_threads_live_threads");
  }

  @Test
  void otherMethodsAndPathsAreRefused() throws Exception {
    assertThat(send("POST", "/health/ready").statusCode()).isEqualTo(405);
    assertThat(send("HEAD", "/health/live").statusCode()).isEqualTo(200);
    assertThat(get("/nothing").statusCode()).isEqualTo(404);
  }

  @Test
  void aTakenPortFailsNamingTheSetting() {
    assertThatThrownBy(() -> HealthServer.start("127.0.0.1", server.port(), readiness, registry))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("--health-port")
        .hasMessageContaining(":" + server.port());
  }

  @Test
  void appRuntimeServesOnlyWhenThePortIsOn() throws Exception {
    try (AppRuntime off = AppRuntime.start("a", new HealthOptions("127.0.0.1", -1))) {
      assertThat(off.port()).isEmpty();
      off.registry().counter("x").increment();
      assertThat(off.registry().scrape()).contains("x_total");
    }
    try (AppRuntime on = AppRuntime.start("a", new HealthOptions("127.0.0.1", 0))) {
      on.readiness().ready();
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + on.port().orElseThrow() + "/health/ready"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
    }
    assertThatThrownBy(() -> AppRuntime.start("a", new HealthOptions("127.0.0.1", 70_000)))
        .hasMessageContaining("--health-port");
  }
}
