package io.specwatch.serde;

import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * A topic travels with its serdes.
 *
 * @param name topic name
 * @param key key serde
 * @param value value serde
 */
public record TopicSpec<K, V>(String name, Serde<K> key, Serde<V> value) {

  public TopicSpec {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("topic name must not be blank");
    }
    Objects.requireNonNull(key, "key serde");
    Objects.requireNonNull(value, "value serde");
  }

  /**
   * A topic with plain UTF-8 string keys and Avro values in the Confluent wire format.
   *
   * @param name topic name
   * @param valueClass generated Avro class of the values
   * @param serdeConfig serde settings, at least {@code schema.registry.url}
   */
  public static <V extends SpecificRecord> TopicSpec<String, V> stringKeyedAvro(
      String name, Class<V> valueClass, Map<String, ?> serdeConfig) {
    return new TopicSpec<>(
        name, Serdes.String(), AvroSerde.forClass(valueClass, serdeConfig, false));
  }
}
