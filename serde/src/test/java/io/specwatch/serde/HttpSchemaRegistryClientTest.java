package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.specwatch.schemas.DeadLetter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP behaviour of the client (retries, error mapping, auth) against a scripted local HTTP
 * endpoint; the protocol against a real registry is covered by the integration tests.
 */
class HttpSchemaRegistryClientTest {
  private record Reply(int status, String body) {}

  private record Seen(String method, String path, String authorization, String body) {}

  private HttpServer server;
  private final Deque<Reply> replies = new ArrayDeque<>();
  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    seen.add(
        new Seen(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath(),
            exchange.getRequestHeaders().getFirst("Authorization"),
            body));
    Reply reply;
    synchronized (replies) {
      reply = replies.isEmpty() ? new Reply(500, "{}") : replies.poll();
    }
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
    exchange.sendResponseHeaders(reply.status(), bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private HttpSchemaRegistryClient client(Map<String, Object> extra) {
    Map<String, Object> settings = new java.util.HashMap<>(extra);
    settings.put(
        "schema.registry.url",
        "http://127.0.0.1:" + server.getAddress().getPort() + "/apis/ccompat/v7/");
    settings.putIfAbsent("retries.wait.ms", 1);
    settings.putIfAbsent("retries.max.wait.ms", 4);
    return new HttpSchemaRegistryClient(RegistryConfig.from(settings));
  }

  @Test
  void retries5xxThenSucceeds() {
    replies.add(new Reply(503, "{\"error_code\":50003,\"message\":\"busy\"}"));
    replies.add(new Reply(500, "not json"));
    replies.add(new Reply(200, "{\"id\":7}"));
    int id = client(Map.of()).register("a b/value", DeadLetter.getClassSchema());
    assertThat(id).isEqualTo(7);
    assertThat(seen).hasSize(3);
    assertThat(seen.get(0).method()).isEqualTo("POST");
    assertThat(seen.get(0).path()).isEqualTo("/apis/ccompat/v7/subjects/a%20b%2Fvalue/versions");
    assertThat(seen.get(0).body()).contains("\"schema\"").contains("DeadLetter");
  }

  @Test
  void givesUpAfterMaxRetriesWithTheLastError() {
    replies.add(new Reply(503, "{\"error_code\":50301,\"message\":\"down\"}"));
    replies.add(new Reply(503, "{\"error_code\":50302,\"message\":\"still down\"}"));
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 1));
    assertThatThrownBy(() -> client.getSchemaById(1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("still down")
        .satisfies(e -> assertThat(((SchemaRegistryException) e).errorCode()).isEqualTo(50302));
    assertThat(seen).hasSize(2);
  }

  @Test
  void doesNotRetry4xxAndCarriesTheRegistryErrorCode() {
    replies.add(new Reply(404, "{\"error_code\":40401,\"message\":\"Subject 'x' not found.\"}"));
    assertThatThrownBy(() -> client(Map.of()).getLatest("x"))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("Subject 'x' not found.")
        .satisfies(
            e -> {
              SchemaRegistryException sre = (SchemaRegistryException) e;
              assertThat(sre.httpStatus()).isEqualTo(404);
              assertThat(sre.errorCode()).isEqualTo(SchemaRegistryException.SUBJECT_NOT_FOUND);
              assertThat(sre.isRetriable()).isFalse();
            });
    assertThat(seen).hasSize(1);
  }

  @Test
  void sendsBasicAuthAndParsesAnswers() {
    String schemaJson = DeadLetter.getClassSchema().toString().replace("\"", "\\\"");
    replies.add(
        new Reply(
            200, "{\"subject\":\"s\",\"id\":3,\"version\":2,\"schema\":\"" + schemaJson + "\"}"));
    replies.add(new Reply(200, "{\"is_compatible\":false}"));
    replies.add(new Reply(200, "{\"schema\":\"" + schemaJson + "\"}"));
    replies.add(new Reply(200, "{\"compatibility\":\"FULL\"}"));
    HttpSchemaRegistryClient client =
        client(
            Map.of("basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "svc:pw"));

    RegisteredSchema latest = client.getLatest("s");
    assertThat(latest.id()).isEqualTo(3);
    assertThat(latest.version()).isEqualTo(2);
    assertThat(latest.schema()).isEqualTo(DeadLetter.getClassSchema());
    assertThat(client.testCompatibility("s", DeadLetter.getClassSchema())).isFalse();
    assertThat(client.getSchemaById(3)).isEqualTo(DeadLetter.getClassSchema());
    client.setCompatibility("s", "FULL");

    assertThat(seen).extracting(Seen::authorization).containsOnly("Basic c3ZjOnB3");
    assertThat(seen)
        .extracting(Seen::path)
        .containsExactly(
            "/apis/ccompat/v7/subjects/s/versions/latest",
            "/apis/ccompat/v7/compatibility/subjects/s/versions/latest",
            "/apis/ccompat/v7/schemas/ids/3",
            "/apis/ccompat/v7/config/s");
    assertThat(seen.get(3).method()).isEqualTo("PUT");
    assertThat(seen.get(3).body()).isEqualTo("{\"compatibility\":\"FULL\"}");
  }

  @Test
  void cachingClientAsksOncePerIdAndPerSubjectSchema() {
    String schemaJson = DeadLetter.getClassSchema().toString().replace("\"", "\\\"");
    replies.add(new Reply(200, "{\"id\":11}"));
    replies.add(new Reply(200, "{\"schema\":\"" + schemaJson + "\"}"));
    CachingSchemaRegistryClient cached = new CachingSchemaRegistryClient(client(Map.of()));
    for (int i = 0; i < 3; i++) {
      assertThat(cached.register("c-value", DeadLetter.getClassSchema())).isEqualTo(11);
      assertThat(cached.getSchemaById(12)).isEqualTo(DeadLetter.getClassSchema());
    }
    assertThat(seen).hasSize(2);
  }

  @Test
  void ioErrorsAreRetriedThenReported() throws IOException {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    HttpSchemaRegistryClient client =
        new HttpSchemaRegistryClient(
            RegistryConfig.from(
                Map.of(
                    "schema.registry.url", "http://127.0.0.1:" + port,
                    "max.retries", 2,
                    "retries.wait.ms", 1,
                    "retries.max.wait.ms", 2)));
    assertThatThrownBy(() -> client.getSchemaById(1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("failed")
        .satisfies(e -> assertThat(((SchemaRegistryException) e).isRetriable()).isTrue());
  }
}
