package io.specwatch.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the Confluent Schema Registry REST API over {@link HttpClient}: works against
 * Confluent Schema Registry, Apicurio's {@code /apis/ccompat/v7}, Karapace and Redpanda. Retries IO
 * errors and 5xx answers with bounded exponential backoff, rotating through the configured URLs;
 * 4xx answers fail at once. Not cached: wrap in {@link CachingSchemaRegistryClient}.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {
  private static final Logger LOG = LoggerFactory.getLogger(HttpSchemaRegistryClient.class);
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final String ACCEPT =
      "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json, application/json";

  private final RegistryConfig config;
  private final HttpClient http;
  private final ObjectMapper json = new ObjectMapper();
  private final String authorization;

  public HttpSchemaRegistryClient(RegistryConfig config) {
    this.config = config;
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(config.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER);
    if (config.trustStore() != null || config.keyStore() != null) {
      builder.sslContext(TlsContexts.create(config));
    }
    this.http = builder.build();
    this.authorization =
        config.userInfo() == null
            ? null
            : "Basic "
                + Base64.getEncoder()
                    .encodeToString(config.userInfo().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public int register(String subject, Schema schema) {
    return send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema))
        .path("id")
        .asInt();
  }

  @Override
  public Schema getSchemaById(int id) {
    return parse(send("GET", "/schemas/ids/" + id, null).path("schema").asText());
  }

  @Override
  public RegisteredSchema lookup(String subject, Schema schema) {
    return registered(send("POST", "/subjects/" + encode(subject), schemaBody(schema)), subject);
  }

  @Override
  public RegisteredSchema getLatest(String subject) {
    return registered(
        send("GET", "/subjects/" + encode(subject) + "/versions/latest", null), subject);
  }

  @Override
  public boolean testCompatibility(String subject, Schema schema) {
    return send(
            "POST",
            "/compatibility/subjects/" + encode(subject) + "/versions/latest",
            schemaBody(schema))
        .path("is_compatible")
        .asBoolean(false);
  }

  @Override
  public void setCompatibility(String subject, String level) {
    ObjectNode body = json.createObjectNode().put("compatibility", level);
    send("PUT", "/config/" + encode(subject), body.toString());
  }

  private RegisteredSchema registered(JsonNode node, String subject) {
    return new RegisteredSchema(
        node.path("subject").asText(subject),
        node.path("id").asInt(),
        node.path("version").asInt(),
        parse(node.path("schema").asText()));
  }

  private String schemaBody(Schema schema) {
    return json.createObjectNode().put("schema", schema.toString()).toString();
  }

  private JsonNode send(String method, String path, String body) {
    SchemaRegistryException last = null;
    for (int attempt = 0; attempt <= config.maxRetries(); attempt++) {
      if (attempt > 0) {
        sleep(backoff(attempt));
      }
      URI base = config.urls().get(attempt % config.urls().size());
      try {
        return attempt(base, method, path, body);
      } catch (SchemaRegistryException e) {
        if (!e.isRetriable()) {
          throw e;
        }
        last = e;
        LOG.warn(
            "Registry call {} {} at {} failed (attempt {} of {}): {}",
            method,
            path,
            base,
            attempt + 1,
            config.maxRetries() + 1,
            e.getMessage());
      }
    }
    throw last;
  }

  private JsonNode attempt(URI base, String method, String path, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(stripSlash(base.toString()) + path))
            .timeout(config.requestTimeout())
            .header("Accept", ACCEPT)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (body != null) {
      request.header("Content-Type", CONTENT_TYPE);
    }
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new SchemaRegistryException(
          0, 0, method + " " + path + " at " + base + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchemaRegistryException(0, 0, "interrupted during " + method + " " + path, e);
    }
    int status = response.statusCode();
    JsonNode node = readJson(response.body());
    if (status >= 200 && status < 300) {
      return node;
    }
    int errorCode = node == null ? status : node.path("error_code").asInt(status);
    String message =
        node == null || !node.hasNonNull("message")
            ? truncate(response.body())
            : node.path("message").asText();
    throw new SchemaRegistryException(
        status, errorCode, method + " " + path + " at " + base + ": " + message);
  }

  private JsonNode readJson(String body) {
    if (body == null || body.isBlank()) {
      return json.createObjectNode();
    }
    try {
      return json.readTree(body);
    } catch (IOException e) {
      return null;
    }
  }

  private Duration backoff(int attempt) {
    long base = config.retryBackoff().toMillis();
    long shifted = attempt >= 31 ? Long.MAX_VALUE : base << (attempt - 1);
    return Duration.ofMillis(
        Math.min(shifted < 0 ? Long.MAX_VALUE : shifted, config.maxRetryBackoff().toMillis()));
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchemaRegistryException(0, 0, "interrupted while backing off", e);
    }
  }

  private static Schema parse(String schema) {
    try {
      return new Schema.Parser().parse(schema);
    } catch (RuntimeException e) {
      throw new SchemaRegistryException(
          200, SchemaRegistryException.INVALID_SCHEMA, "registry returned an unparsable schema", e);
    }
  }

  private static String encode(String subject) {
    return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static String truncate(String body) {
    if (body == null) {
      return "";
    }
    return body.length() > 300 ? body.substring(0, 300) + "..." : body;
  }
}
