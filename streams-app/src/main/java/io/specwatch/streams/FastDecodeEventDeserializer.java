package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.AvroSerde;
import io.specwatch.serde.SchemaRegistryClient;
import io.specwatch.serde.SchemaRegistryClients;
import io.specwatch.serde.SerdeConfig;
import io.specwatch.serde.WireFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input topic's value deserializer: {@link DecodeEventDecoder} for records whose writer schema
 * has the generated schema's binary layout (equal parsing canonical forms: same fields, types,
 * order and symbols), the generic reader of {@code AvroDeserializer} for every other schema id and
 * for any record the hand-written decoder rejects, so a malformed record fails (and is
 * dead-lettered) exactly as before. Self-check: the first record of each schema id is decoded both
 * ways and the fast path is used for that id only if both agree (else a warning, and the generic
 * reader from then on).
 *
 * <p>Thread-safe (shared by the stream threads): the decoder is stateless, the per-id decisions are
 * in a concurrent map.
 */
final class FastDecodeEventDeserializer implements Deserializer<DecodeEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(FastDecodeEventDeserializer.class);
  private static final long READER_FINGERPRINT =
      SchemaNormalization.parsingFingerprint64(DecodeEventDecoder.SCHEMA);

  private final Deserializer<DecodeEvent> generic;
  private final Map<Integer, Boolean> fastById = new ConcurrentHashMap<>();
  private final SchemaRegistryClient client;

  FastDecodeEventDeserializer(Deserializer<DecodeEvent> generic, SchemaRegistryClient client) {
    this.generic = Objects.requireNonNull(generic, "generic");
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The Avro serde of DecodeEvent with this deserializer, configured with {@code configs}. */
  static Serde<DecodeEvent> serde(Map<String, ?> configs) {
    AvroSerde<DecodeEvent> avro = AvroSerde.forClass(DecodeEvent.class, configs, false);
    SchemaRegistryClient client =
        SchemaRegistryClients.create(SerdeConfig.from(configs, false).registry());
    return Serdes.serdeFrom(
        avro.serializer(), new FastDecodeEventDeserializer(avro.deserializer(), client));
  }

  @Override
  public DecodeEvent deserialize(String topic, byte[] data) {
    if (data == null || data.length <= WireFormat.HEADER_SIZE || data[0] != WireFormat.MAGIC_BYTE) {
      return generic.deserialize(topic, data);
    }
    int id =
        ((data[1] & 0xff) << 24)
            | ((data[2] & 0xff) << 16)
            | ((data[3] & 0xff) << 8)
            | (data[4] & 0xff);
    Boolean fast = fastById.get(id);
    if (fast == null) {
      return firstOfSchema(topic, data, id);
    }
    if (fast) {
      try {
        return DecodeEventDecoder.decode(
            data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE);
      } catch (RuntimeException e) {
        // malformed for the hand-written decoder: the generic reader decides (and names the error)
      }
    }
    return generic.deserialize(topic, data);
  }

  /** Decides the fast path for schema id {@code id} on its first record. */
  private DecodeEvent firstOfSchema(String topic, byte[] data, int id) {
    DecodeEvent expected = generic.deserialize(topic, data); // throws as before for a bad record
    boolean fast;
    Schema writer;
    try {
      writer = client.getSchemaById(id);
    } catch (RuntimeException e) {
      return expected; // registry unreachable: decide on a later record
    }
    if (!DecodeEventDecoder.MATCHES_GENERATED_SCHEMA
        || SchemaNormalization.parsingFingerprint64(writer) != READER_FINGERPRINT) {
      fast = false;
    } else {
      DecodeEvent decoded;
      try {
        decoded =
            DecodeEventDecoder.decode(
                data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE);
      } catch (RuntimeException e) {
        decoded = null;
      }
      fast = expected.equals(decoded);
      if (!fast) {
        LOG.warn(
            "topic {} schema id {}: the hand-written DecodeEvent decoder disagrees with the generic"
                + " reader on the first record; using the generic reader for this schema",
            topic,
            id);
      }
    }
    fastById.putIfAbsent(id, fast);
    return expected;
  }

  /** Whether schema id {@code id} reads through the hand-written decoder (null: undecided). */
  Boolean usesDecoder(int id) {
    return fastById.get(id);
  }

  @Override
  public void close() {
    generic.close();
    client.close();
  }
}
