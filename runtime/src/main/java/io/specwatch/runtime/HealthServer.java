package io.specwatch.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The apps' operability endpoints on the JDK's HTTP server (one daemon thread):
 *
 * <ul>
 *   <li>{@code GET /health/live}: 200 while the app is not in a fatal state, else 503
 *   <li>{@code GET /health/ready}: 200 while the app reports ready, else 503
 *   <li>{@code GET /metrics}: the registry in Prometheus text format
 * </ul>
 *
 * Health answers carry a small JSON body: {@code {"status":"UP","reason":"ok"}}.
 */
public final class HealthServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HealthServer.class);
  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;
  private final Readiness readiness;
  private final PrometheusMeterRegistry registry;

  private HealthServer(
      InetSocketAddress address, Readiness readiness, PrometheusMeterRegistry registry)
      throws IOException {
    this.readiness = Objects.requireNonNull(readiness, "readiness");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.server = HttpServer.create(address, 16);
    this.executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "specwatch-health");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/health/live", this::live);
    server.createContext("/health/ready", this::ready);
    server.createContext("/metrics", this::metrics);
    server.start();
  }

  /**
   * Starts a server on {@code bindAddress:port} (port 0: ephemeral).
   *
   * @throws IllegalStateException naming the address when it cannot bind
   */
  public static HealthServer start(
      String bindAddress, int port, Readiness readiness, PrometheusMeterRegistry registry) {
    try {
      HealthServer s =
          new HealthServer(new InetSocketAddress(bindAddress, port), readiness, registry);
      LOG.info(
          "health endpoints on http://{}:{}/health/live, /health/ready, /metrics",
          bindAddress,
          s.port());
      return s;
    } catch (IOException e) {
      throw new IllegalStateException(
          "--health-port: cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
    }
  }

  /** The bound port (the ephemeral one when started with port 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  private void live(HttpExchange ex) throws IOException {
    if (!isGet(ex)) {
      return;
    }
    Readiness.Status s = readiness.status();
    health(ex, s.live(), s.live() ? "ok" : s.reason());
  }

  private void ready(HttpExchange ex) throws IOException {
    if (!isGet(ex)) {
      return;
    }
    Readiness.Status s = readiness.status();
    health(ex, s.ready(), s.reason());
  }

  private void metrics(HttpExchange ex) throws IOException {
    if (!isGet(ex)) {
      return;
    }
    String body;
    try {
      body = registry.scrape();
    } catch (RuntimeException e) {
      LOG.warn("metrics scrape failed", e);
      send(ex, 500, "text/plain; charset=utf-8", "scrape failed: " + e);
      return;
    }
    send(ex, 200, PROMETHEUS_TEXT, body);
  }

  private static void health(HttpExchange ex, boolean up, String reason) throws IOException {
    String body =
        "{\"status\":\"" + (up ? "UP" : "DOWN") + "\",\"reason\":\"" + jsonEscape(reason) + "\"}";
    send(ex, up ? 200 : 503, "application/json", body);
  }

  private static boolean isGet(HttpExchange ex) throws IOException {
    String m = ex.getRequestMethod();
    if (m.equals("GET") || m.equals("HEAD")) {
      return true;
    }
    ex.getResponseHeaders().set("Allow", "GET, HEAD");
    send(ex, 405, "text/plain; charset=utf-8", "method not allowed");
    return false;
  }

  private static void send(HttpExchange ex, int code, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    boolean head = ex.getRequestMethod().equals("HEAD");
    ex.sendResponseHeaders(code, head ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      if (!head) {
        out.write(bytes);
      }
    }
  }

  static String jsonEscape(String s) {
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  /** Stops listening at once; exchanges in flight are cut (the process is shutting down). */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
