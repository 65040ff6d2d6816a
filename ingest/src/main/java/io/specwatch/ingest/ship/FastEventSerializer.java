package io.specwatch.ingest.ship;

import io.specwatch.schemas.DecodeEvent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DecodeEvents to Confluent-wire-format bytes with {@link DecodeEventEncoder} once the registry
 * serializer has resolved the topic's schema id: the first event of each topic goes through the
 * registry serializer, and its bytes are compared with the hand encoder's; only when they are
 * identical (and the writer schema is the generated one: no {@code use.latest.version}) does the
 * hand encoder take over for that topic. Otherwise, and for any event the hand encoder cannot
 * write, the registry serializer is used. Not thread-safe (one per shipping thread).
 */
final class FastEventSerializer {

  private static final Logger LOG = LoggerFactory.getLogger(FastEventSerializer.class);

  private final Serializer<DecodeEvent> generic;
  private final boolean enabled;
  private final DecodeEventEncoder encoder = new DecodeEventEncoder();

  /** topic -> schema id for the hand encoder, or -1 when the self-check failed. */
  private final Map<String, Integer> ids = new HashMap<>();

  FastEventSerializer(Serializer<DecodeEvent> generic, boolean useLatestVersion) {
    this.generic = generic;
    this.enabled = !useLatestVersion && DecodeEventEncoder.matchesSchema();
    if (!enabled) {
      LOG.info(
          "decode events are encoded by the generic Avro writer ({})",
          useLatestVersion ? "use.latest.version" : "schema fields differ from the hand encoder's");
    }
  }

  byte[] serialize(String topic, DecodeEvent event) {
    if (!enabled) {
      return generic.serialize(topic, event);
    }
    Integer id = ids.get(topic);
    if (id == null) {
      byte[] reference = generic.serialize(topic, event);
      int schemaId =
          ((reference[1] & 0xFF) << 24)
              | ((reference[2] & 0xFF) << 16)
              | ((reference[3] & 0xFF) << 8)
              | (reference[4] & 0xFF);
      byte[] mine = tryEncode(schemaId, event);
      boolean same = mine != null && Arrays.equals(reference, mine);
      ids.put(topic, same ? schemaId : -1);
      if (!same) {
        LOG.warn(
            "hand-written DecodeEvent encoder differs from the Avro writer on topic {}; using the"
                + " Avro writer",
            topic);
      }
      return reference;
    }
    if (id < 0) {
      return generic.serialize(topic, event);
    }
    byte[] mine = tryEncode(id, event);
    return mine != null ? mine : generic.serialize(topic, event);
  }

  /**
   * The schema id the hand encoder writes for topic once its self-check passed, else -1 (not yet
   * checked, failed, or disabled).
   */
  int handEncoderSchemaId(String topic) {
    Integer id = enabled ? ids.get(topic) : null;
    return id != null ? id : -1;
  }

  private byte[] tryEncode(int schemaId, DecodeEvent event) {
    try {
      return encoder.encode(schemaId, event);
    } catch (RuntimeException e) {
      return null; // e.g. a null required field: the generic writer reports it
    }
  }
}
