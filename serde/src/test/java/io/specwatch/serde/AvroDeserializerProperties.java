package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DeadLetter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.errors.SerializationException;

/** Whatever bytes arrive, the deserializer returns a record or throws SerializationException. */
class AvroDeserializerProperties {
  private static final String SCOPE = "deserializer-properties";
  private static final Map<String, Object> CONFIG =
      Map.of("schema.registry.url", "mock://" + SCOPE);

  @Property(tries = 500)
  void arbitraryBytesNeverEscapeAsAnotherException(@ForAll("payloads") byte[] payload) {
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, CONFIG, false)) {
      try {
        DeadLetter read = serde.deserializer().deserialize("fuzz", payload);
        assertThat(read).isNotNull();
      } catch (SerializationException expected) {
        assertThat(expected).hasMessageContaining("fuzz");
      }
    }
  }

  @Property(tries = 200)
  void truncatedValidRecordsFailCleanly(@ForAll("cuts") int cut) {
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, CONFIG, false)) {
      byte[] full = serde.serializer().serialize("fuzz", SampleRecords.deadLetter());
      byte[] truncated = Arrays.copyOf(full, Math.min(cut, full.length - 1));
      try {
        serde.deserializer().deserialize("fuzz", truncated);
      } catch (SerializationException expected) {
        assertThat(expected).hasMessageContaining("fuzz");
      }
    }
  }

  /** Random bodies behind the header of a registered schema (id 1), plus fully random bytes. */
  @Provide
  Arbitrary<byte[]> payloads() {
    InMemorySchemaRegistryClient.forScope(SCOPE)
        .register("fuzz-value", DeadLetter.getClassSchema());
    Arbitrary<byte[]> bodies = Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
    Arbitrary<byte[]> framed =
        bodies.map(
            body -> ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(1).put(body).array());
    return Arbitraries.oneOf(framed, bodies);
  }

  @Provide
  Arbitrary<Integer> cuts() {
    return Arbitraries.integers().between(0, 400);
  }
}
