package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RegistryCompatibilityIT {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static final String V1 =
      "{\"type\":\"record\",\"name\":\"Probe\",\"namespace\":\"io.specwatch.it\","
          + "\"fields\":[{\"name\":\"deployment\",\"type\":\"string\"}]}";
  // BACKWARD-compatible: the new field has a default
  private static final String V2_COMPATIBLE =
      "{\"type\":\"record\",\"name\":\"Probe\",\"namespace\":\"io.specwatch.it\","
          + "\"fields\":[{\"name\":\"deployment\",\"type\":\"string\"},"
          + "{\"name\":\"tau\",\"type\":\"double\",\"default\":1.0}]}";
  // BACKWARD-incompatible: a new field without a default cannot be read from old data
  private static final String V3_INCOMPATIBLE =
      "{\"type\":\"record\",\"name\":\"Probe\",\"namespace\":\"io.specwatch.it\","
          + "\"fields\":[{\"name\":\"deployment\",\"type\":\"string\"},"
          + "{\"name\":\"tau\",\"type\":\"double\",\"default\":1.0},"
          + "{\"name\":\"verifyMs\",\"type\":\"double\"}]}";

  @Test
  void backwardCompatibilityIsEnforcedOnRegistration() throws Exception {
    String subject = SpecwatchContainers.uniqueName("it.probe") + "-value";

    HttpResponse<String> first = register(subject, V1);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(first.body()).containsPattern("\"id\"\\s*:\\s*\\d+");

    HttpResponse<String> compatible = register(subject, V2_COMPATIBLE);
    assertThat(compatible.statusCode()).as(compatible.body()).isEqualTo(200);

    HttpResponse<String> incompatible = register(subject, V3_INCOMPATIBLE);
    assertThat(incompatible.statusCode()).as(incompatible.body()).isEqualTo(409);

    HttpResponse<String> versions = get("/subjects/" + subject + "/versions");
    assertThat(versions.body().replace(" ", "")).isEqualTo("[1,2]");
  }

  private static HttpResponse<String> register(String subject, String schema) throws Exception {
    String body = "{\"schema\":\"" + schema.replace("\"", "\\\"") + "\"}";
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    SpecwatchContainers.registryUrl() + "/subjects/" + subject + "/versions"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(SpecwatchContainers.registryUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
