package io.specwatch.sink.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard over HTTP (JDK server, no servlet container): a static page ({@code
 * /dashboard/*.html|js|css} on the classpath), the uPlot chart library from its webjar under {@code
 * /vendor/}, and a JSON API over ClickHouse:
 *
 * <ul>
 *   <li>{@code GET /api/deployments}
 *   <li>{@code GET /api/windows?deployment=D[&from=T][&to=T]} (T: ISO-8601 instant or epoch s)
 *   <li>{@code GET /api/alerts?deployment=D[&from=T][&to=T]}
 * </ul>
 *
 * Bad parameters answer 400, ClickHouse failures 502, both with {@code {"error": "..."}}. Every
 * request is timed in {@code specwatch_dashboard_requests_seconds} tagged {@code endpoint} (the API
 * path, {@code static} for the page's files, {@code other}) and {@code status}.
 */
public final class DashboardServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DashboardServer.class);

  static final String UPLOT_VERSION = "1.6.30";
  private static final String UPLOT_DIR =
      "/META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/";
  private static final Map<String, String> STATIC =
      Map.of(
          "/", "/dashboard/index.html",
          "/index.html", "/dashboard/index.html",
          "/app.js", "/dashboard/app.js",
          "/style.css", "/dashboard/style.css",
          "/vendor/uPlot.iife.min.js", UPLOT_DIR + "uPlot.iife.min.js",
          "/vendor/uPlot.min.css", UPLOT_DIR + "uPlot.min.css");

  private static final Set<String> API = Set.of("/api/deployments", "/api/windows", "/api/alerts");
  private static final String STATUS = "specwatch.status";

  private final HttpServer server;
  private final ExecutorService executor;
  private final DashboardQueries queries;
  private final MeterRegistry registry;

  private DashboardServer(HttpServer server, DashboardQueries queries, MeterRegistry registry) {
    this.server = server;
    this.queries = queries;
    this.registry = registry;
    this.executor = Executors.newFixedThreadPool(4);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
  }

  /** Starts serving on {@code bind:port} (port 0: an ephemeral port, see {@link #port()}). */
  public static DashboardServer start(ClickHouseSql sql, String database, String bind, int port)
      throws IOException {
    return start(sql, database, bind, port, new CompositeMeterRegistry());
  }

  /** As {@link #start(ClickHouseSql, String, String, int)}, timing requests in {@code registry}. */
  public static DashboardServer start(
      ClickHouseSql sql, String database, String bind, int port, MeterRegistry registry)
      throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(bind, port), 32);
    DashboardServer dashboard =
        new DashboardServer(http, new DashboardQueries(sql, database), registry);
    http.start();
    log.info("dashboard on http://{}:{}/ (database {})", bind, dashboard.port(), database);
    return dashboard;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    long start = System.nanoTime();
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())
          && !"HEAD".equals(exchange.getRequestMethod())) {
        send(exchange, 405, "application/json", DashboardJson.error("only GET"));
        return;
      }
      String path = exchange.getRequestURI().getPath();
      if (path.startsWith("/api/")) {
        api(exchange, path);
      } else {
        staticFile(exchange, path);
      }
    } catch (RuntimeException e) {
      log.warn("dashboard request {} failed", exchange.getRequestURI(), e);
    } finally {
      Object status = exchange.getAttribute(STATUS);
      Timer.builder("specwatch.dashboard.requests")
          .description("Dashboard HTTP requests by endpoint and status")
          .tag("endpoint", endpoint(exchange.getRequestURI().getPath()))
          .tag("status", status == null ? "none" : status.toString())
          .register(registry)
          .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }
  }

  /** The {@code endpoint} tag: bounded, whatever paths clients send. */
  static String endpoint(String path) {
    if (API.contains(path)) {
      return path;
    }
    return STATIC.containsKey(path) ? "static" : "other";
  }

  private void api(HttpExchange exchange, String path) throws IOException {
    Map<String, String> q = query(exchange.getRequestURI().getRawQuery());
    byte[] body;
    try {
      body =
          switch (path) {
            case "/api/deployments" -> DashboardJson.deployments(queries.deployments());
            case "/api/windows" ->
                queries.windowsJson(deployment(q), TimeRange.parse(q.get("from"), q.get("to")));
            case "/api/alerts" ->
                DashboardJson.alerts(
                    queries.alerts(deployment(q), TimeRange.parse(q.get("from"), q.get("to"))));
            default -> null;
          };
    } catch (BadRequest e) {
      send(exchange, 400, "application/json", DashboardJson.error(e.getMessage()));
      return;
    } catch (RuntimeException e) {
      log.warn("dashboard query {} failed", exchange.getRequestURI(), e);
      send(exchange, 502, "application/json", DashboardJson.error("ClickHouse: " + e.getMessage()));
      return;
    }
    if (body == null) {
      send(exchange, 404, "application/json", DashboardJson.error("no such endpoint: " + path));
    } else {
      send(exchange, 200, "application/json", body);
    }
  }

  static String deployment(Map<String, String> q) {
    String d = q.get("deployment");
    if (d == null || d.isBlank()) {
      throw new BadRequest("parameter deployment is required");
    }
    if (d.length() > 256) {
      throw new BadRequest("parameter deployment is longer than 256 characters");
    }
    return d;
  }

  static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  private static void staticFile(HttpExchange exchange, String path) throws IOException {
    String resource = STATIC.get(path);
    if (resource == null) {
      send(
          exchange,
          404,
          "text/plain; charset=utf-8",
          ("not found: " + path).getBytes(StandardCharsets.UTF_8));
      return;
    }
    try (InputStream in = DashboardServer.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing classpath resource " + resource);
      }
      send(exchange, 200, contentType(resource), in.readAllBytes());
    }
  }

  static String contentType(String resource) {
    if (resource.endsWith(".html")) {
      return "text/html; charset=utf-8";
    }
    if (resource.endsWith(".js")) {
      return "text/javascript; charset=utf-8";
    }
    return "text/css; charset=utf-8";
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.setAttribute(STATUS, status);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
