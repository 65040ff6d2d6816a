package io.specwatch.sink;

import io.specwatch.serde.SchemaRegistryClient;
import io.specwatch.serde.SchemaRegistryClients;
import io.specwatch.serde.SerdeConfig;
import io.specwatch.serde.WireFormat;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The sink's Avro decoder for one table's topic (one thread): Confluent wire format read straight
 * from the record bytes (5-byte header skipped, no copy), the writer schema fetched from the
 * registry once per schema id and resolved to the generated class's schema once per id (so a record
 * written with an older or newer registered schema still decodes), and the binary decoder and the
 * previous record object reused for the next record.
 *
 * <p>The returned value is valid until the next {@link #decode} call (the sink encodes it into its
 * row buffer right away). Decoding the same bytes gives the same value as {@link
 * io.specwatch.serde.AvroDeserializer} ({@code RecordDecoderTest} compares the encoded rows of both
 * over generated records). Not thread-safe.
 */
final class RecordDecoder<V extends SpecificRecord> implements AutoCloseable {

  private final Class<V> type;
  private final SpecificData model;
  private final Schema readerSchema;
  private final SchemaRegistryClient client;
  private final Map<Integer, DatumReader<V>> readers = new HashMap<>();
  private final Map<Integer, Boolean> transcodable = new HashMap<>();
  private BinaryDecoder decoder;
  private V reuse;

  RecordDecoder(Class<V> type, Map<String, ?> serdeConfig) {
    this(type, SchemaRegistryClients.create(SerdeConfig.from(serdeConfig, false).registry()));
  }

  RecordDecoder(Class<V> type, SchemaRegistryClient client) {
    this.type = Objects.requireNonNull(type, "type");
    this.model = SpecificData.getForClass(type);
    this.readerSchema = model.getSchema(type);
    this.client = Objects.requireNonNull(client, "client");
  }

  /**
   * True when {@code data}'s writer schema is exactly the one {@code transcoder} was written for
   * (Avro parsing fingerprint, once per schema id); false for any other schema and for a header or
   * schema id that does not resolve (the {@link #decode} path then reports it).
   */
  boolean transcodable(String topic, byte[] data, io.specwatch.sink.rows.RowTranscoder transcoder) {
    try {
      int id = WireFormat.readSchemaId(topic, ByteBuffer.wrap(data));
      Boolean exact = transcodable.get(id);
      if (exact == null) {
        exact = transcoder.matches(client.getSchemaById(id));
        transcodable.put(id, exact);
      }
      return exact;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Decodes one record value; throws {@link SerializationException} for undecodable bytes. */
  V decode(String topic, byte[] data) {
    ByteBuffer header = ByteBuffer.wrap(data);
    int id = WireFormat.readSchemaId(topic, header);
    try {
      DatumReader<V> reader = readers.get(id);
      if (reader == null) {
        reader = new SpecificDatumReader<>(client.getSchemaById(id), readerSchema, model);
        readers.put(id, reader);
      }
      decoder =
          DecoderFactory.get()
              .binaryDecoder(
                  data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE, decoder);
      V value = reader.read(reuse, decoder);
      reuse = value;
      return value;
    } catch (Exception e) {
      reuse = null; // a half-filled object is not reused
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

  @Override
  public void close() {
    client.close();
  }
}
