package io.specwatch.serde;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent wire-format Avro into the generated class {@code T}: fetches the writer schema by
 * the id in the header and resolves it to {@code T}'s schema, so records written with an older or
 * newer compatible schema still read.
 */
public class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
  private final Class<T> type;
  private final SpecificData model;
  private final Schema readerSchema;
  private final Map<Integer, DatumReader<T>> readers = new ConcurrentHashMap<>();
  private SchemaRegistryClient client;

  /** Unconfigured; call {@link #configure}. */
  public AvroDeserializer(Class<T> type) {
    this.type = Objects.requireNonNull(type, "type");
    this.model = SpecificData.getForClass(type);
    this.readerSchema = model.getSchema(type);
  }

  /** Configured with an explicit client (tests, sharing one client). */
  public AvroDeserializer(Class<T> type, SchemaRegistryClient client) {
    this(type);
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    this.client = SchemaRegistryClients.create(SerdeConfig.from(configs, isKey).registry());
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    if (client == null) {
      throw new IllegalStateException("AvroDeserializer used before configure()");
    }
    ByteBuffer buffer = ByteBuffer.wrap(data);
    int id = WireFormat.readSchemaId(topic, buffer);
    try {
      DatumReader<T> reader = readers.get(id);
      if (reader == null) {
        reader = newReader(id);
        readers.put(id, reader);
      }
      return reader.read(
          null,
          DecoderFactory.get().binaryDecoder(data, buffer.position(), buffer.remaining(), null));
    } catch (Exception e) {
      throw new SerializationException(
          "Error deserializing Avro "
              + type.getSimpleName()
              + " from topic "
              + topic
              + " with schema id "
              + id
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private DatumReader<T> newReader(int id) {
    Schema writer = client.getSchemaById(id);
    return new SpecificDatumReader<>(writer, readerSchema, model);
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
  }
}
