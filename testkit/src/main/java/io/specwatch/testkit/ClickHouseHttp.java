package io.specwatch.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Runs one SQL statement over ClickHouse's HTTP interface (no compression: old servers answer a
 * compressed request with an empty body). For test setup and assertions, not for production code.
 */
public final class ClickHouseHttp {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private ClickHouseHttp() {}

  /** The response body (e.g. TabSeparated rows); throws on any non-200 answer. */
  public static String query(String httpUrl, String sql) {
    String url = httpUrl + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    try {
      HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "ClickHouse answered HTTP "
                + response.statusCode()
                + " to ["
                + sql
                + "]: "
                + response.body().strip());
      }
      return response.body();
    } catch (IOException e) {
      throw new IllegalStateException("ClickHouse at " + httpUrl + " unreachable: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while querying ClickHouse", e);
    }
  }
}
