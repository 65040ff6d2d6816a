package io.specwatch.streams.alert;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.function.Function;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * JSON serde of the alert state records (Jackson, records supported). State changelogs are read
 * back by the next release: unknown properties are ignored and missing ones default, so fields can
 * be added without a migration.
 */
public final class JsonStateSerde<T> implements Serde<T> {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final Class<T> type;
  private final Function<T, byte[]> writer;

  public JsonStateSerde(Class<T> type) {
    this(type, null);
  }

  /**
   * With {@code writer} writing the mapper's bytes by hand (see {@link AlertStateJson}); a null
   * result falls back to the mapper. Reading is the mapper's either way.
   */
  JsonStateSerde(Class<T> type, Function<T, byte[]> writer) {
    this.type = type;
    this.writer = writer;
  }

  @Override
  public Serializer<T> serializer() {
    return (topic, value) -> {
      if (value == null) {
        return null;
      }
      if (writer != null) {
        byte[] bytes = writer.apply(value);
        if (bytes != null) {
          return bytes;
        }
      }
      try {
        return MAPPER.writeValueAsBytes(value);
      } catch (IOException e) {
        throw new SerializationException("cannot write " + type.getSimpleName() + " state", e);
      }
    };
  }

  @Override
  public Deserializer<T> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      try {
        return MAPPER.readValue(bytes, type);
      } catch (IOException e) {
        throw new SerializationException("cannot read " + type.getSimpleName() + " state", e);
      }
    };
  }
}
