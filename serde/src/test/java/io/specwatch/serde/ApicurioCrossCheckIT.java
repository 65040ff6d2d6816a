package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.testkit.SpecwatchContainers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Byte-for-byte cross-check against Apicurio's own Kafka serde. Apicurio's default id handler
 * writes a 4-byte content id after the magic byte, and its ccompat API answers with content ids
 * too, so with headers disabled both serdes produce identical Confluent wire-format bytes.
 */
class ApicurioCrossCheckIT {

  /** Apicurio serde settings: its native v3 API on the same server, ids in the payload. */
  private static Map<String, Object> apicurioConfig() {
    String ccompat = SpecwatchContainers.registryUrl();
    String nativeApi = ccompat.replaceFirst("/apis/ccompat/v7/?$", "/apis/registry/v3");
    Map<String, Object> config = new HashMap<>();
    config.put("apicurio.registry.url", nativeApi);
    config.put("apicurio.registry.headers.enabled", false);
    config.put("apicurio.registry.id-handler", "io.apicurio.registry.serde.Default4ByteIdHandler");
    config.put("apicurio.registry.use-id", "contentId");
    config.put("apicurio.registry.auto-register", true);
    config.put("apicurio.registry.use-specific-avro-reader", true);
    return config;
  }

  /** Version metadata (globalId, contentId) from Apicurio's native API. */
  private static JsonNode nativeLatestVersion(String artifactId) throws Exception {
    String url =
        SpecwatchContainers.registryUrl()
                .replaceFirst("/apis/ccompat/v7/?$", "/apis/registry/v3/groups/default/artifacts/")
            + artifactId
            + "/versions/branch=latest";
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(URI.create(url)).GET().build(), BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body());
  }

  private static Map<String, Object> ourConfig() {
    return Map.of("schema.registry.url", SpecwatchContainers.registryUrl());
  }

  @Test
  void sameBytesAndEachReadsTheOther() throws Exception {
    String topic = SpecwatchContainers.uniqueName("it.apicurio");
    DeadLetter record = SampleRecords.deadLetter();
    // the same content under another subject first: the topic's version then gets a new global id
    // but shares the content id, so the check below tells the two id kinds apart
    new HttpSchemaRegistryClient(RegistryConfig.from(ourConfig()))
        .register(topic + "-decoy", DeadLetter.getClassSchema());
    try (AvroSerde<DeadLetter> ours = AvroSerde.forClass(DeadLetter.class, ourConfig(), false);
        AvroKafkaSerializer<DeadLetter> theirSerializer = new AvroKafkaSerializer<>();
        AvroKafkaDeserializer<DeadLetter> theirDeserializer = new AvroKafkaDeserializer<>()) {
      theirSerializer.configure(apicurioConfig(), false);
      theirDeserializer.configure(apicurioConfig(), false);

      byte[] ourBytes = ours.serializer().serialize(topic, record);
      byte[] theirBytes = theirSerializer.serialize(topic, record);

      assertThat(theirBytes).isEqualTo(ourBytes);
      JsonNode version = nativeLatestVersion(topic + "-value");
      int wireId = ByteBuffer.wrap(ourBytes, 1, 4).getInt();
      assertThat(wireId).isEqualTo(version.path("contentId").asInt());
      assertThat(wireId).isNotEqualTo(version.path("globalId").asInt());
      assertThat(theirDeserializer.deserialize(topic, ourBytes)).isEqualTo(record);
      assertThat(ours.deserializer().deserialize(topic, theirBytes)).isEqualTo(record);
    }
  }

  @Test
  void ourSerdeFindsTheIdApicurioRegistered() {
    String topic = SpecwatchContainers.uniqueName("it.apicurio-first");
    DeadLetter record = SampleRecords.deadLetter();
    Map<String, Object> lookupOnly = new HashMap<>(ourConfig());
    lookupOnly.put("auto.register.schemas", false);
    try (AvroKafkaSerializer<DeadLetter> theirSerializer = new AvroKafkaSerializer<>();
        AvroSerde<DeadLetter> ours = AvroSerde.forClass(DeadLetter.class, lookupOnly, false)) {
      theirSerializer.configure(apicurioConfig(), false);
      byte[] theirBytes = theirSerializer.serialize(topic, record);
      byte[] ourBytes = ours.serializer().serialize(topic, record);
      assertThat(ourBytes).isEqualTo(theirBytes);
      assertThat(ByteBuffer.wrap(ourBytes, 1, 4).getInt())
          .isEqualTo(
              new HttpSchemaRegistryClient(RegistryConfig.from(ourConfig()))
                  .lookup(topic + "-value", DeadLetter.getClassSchema())
                  .id());
    }
  }
}
