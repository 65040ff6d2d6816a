package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;

/** GETs on an app's health port and the values of its Prometheus series, for the ITs. */
public final class HealthHttp {

  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private HealthHttp() {}

  /** GET {@code http://127.0.0.1:port/path}. */
  public static HttpResponse<String> get(int port, String path) {
    try {
      return CLIENT.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The status of {@code /health/ready}. */
  public static int ready(int port) {
    return get(port, "/health/ready").statusCode();
  }

  /** The value of the one series in {@code /metrics}, see {@link #value}. */
  public static double metric(int port, String name, String... labels) {
    HttpResponse<String> r = get(port, "/metrics");
    assertThat(r.statusCode()).as("/metrics").isEqualTo(200);
    return value(r.body(), name, labels);
  }

  /**
   * The value of the one series of {@code name} whose labels contain every {@code label} ({@code
   * key="value"}); fails when there is none or more than one.
   */
  public static double value(String metrics, String name, String... labels) {
    List<String> lines =
        metrics
            .lines()
            .filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
            .filter(l -> Arrays.stream(labels).allMatch(l::contains))
            .toList();
    assertThat(lines).as("series %s %s", name, Arrays.toString(labels)).hasSize(1);
    String line = lines.get(0);
    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
  }
}
