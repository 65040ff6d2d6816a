package io.specwatch.serde;

import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde for a generated Avro class in the Confluent wire format. Configure with at least {@code
 * schema.registry.url} (http(s) URL of a Confluent-compatible registry, or {@code mock://scope} for
 * unit tests).
 */
public class AvroSerde<T extends SpecificRecord> implements Serde<T> {
  private final AvroSerializer<T> serializer;
  private final AvroDeserializer<T> deserializer;

  public AvroSerde(Class<T> type) {
    this.serializer = new AvroSerializer<>();
    this.deserializer = new AvroDeserializer<>(type);
  }

  /** A serde using an explicit client (tests, sharing one client). */
  public AvroSerde(
      Class<T> type, SchemaRegistryClient client, Map<String, ?> configs, boolean isKey) {
    this.serializer = new AvroSerializer<>(client, SerdeConfig.from(configs, isKey), isKey);
    this.deserializer = new AvroDeserializer<>(type, client);
  }

  /** A configured serde for {@code type}. */
  public static <T extends SpecificRecord> AvroSerde<T> forClass(
      Class<T> type, Map<String, ?> configs, boolean isKey) {
    AvroSerde<T> serde = new AvroSerde<>(type);
    serde.configure(configs, isKey);
    return serde;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    serializer.configure(configs, isKey);
    deserializer.configure(configs, isKey);
  }

  @Override
  public Serializer<T> serializer() {
    return serializer;
  }

  @Override
  public Deserializer<T> deserializer() {
    return deserializer;
  }

  @Override
  public void close() {
    serializer.close();
    deserializer.close();
  }
}
