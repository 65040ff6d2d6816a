package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DeadLetter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {
  private final String scope = "avro-serde-test-" + UUID.randomUUID();
  private final Map<String, Object> config = Map.of("schema.registry.url", "mock://" + scope);

  @AfterEach
  void dropScope() {
    InMemorySchemaRegistryClient.dropScope(scope);
  }

  @Test
  void roundTripsThroughTheInMemoryRegistry() {
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, config, false)) {
      DeadLetter original = SampleRecords.deadLetter();
      byte[] bytes = serde.serializer().serialize(Topics.DEAD_LETTER, original);
      DeadLetter copy = serde.deserializer().deserialize(Topics.DEAD_LETTER, bytes);
      assertThat(copy).isEqualTo(original);
      assertThat(copy.getFailedAt()).isEqualTo(SampleRecords.FAILED_AT);
      assertThat(copy.getContext()).containsEntry("parser", "v1");
    }
  }

  @Test
  void writesMagicByteBigEndianIdAndPlainAvroBody() throws Exception {
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, config, false)) {
      DeadLetter record = SampleRecords.deadLetter();
      byte[] bytes = serde.serializer().serialize("t1", record);

      int id =
          InMemorySchemaRegistryClient.forScope(scope)
              .lookup("t1-value", DeadLetter.getClassSchema())
              .id();
      assertThat(bytes[0]).isEqualTo((byte) 0);
      assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
      assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).isEqualTo(plainAvro(record));
    }
  }

  @Test
  void headerCarriesTheIdOfTheRegisteredSchemaNotAConstant() {
    InMemorySchemaRegistryClient registry = InMemorySchemaRegistryClient.forScope(scope);
    registry.register("other-value", io.specwatch.schemas.Alert.getClassSchema());
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, config, false)) {
      byte[] bytes = serde.serializer().serialize("t2", SampleRecords.deadLetter());
      assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(2);
    }
  }

  @Test
  void nullInNullOut() {
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, config, false)) {
      assertThat(serde.serializer().serialize("t", null)).isNull();
      assertThat(serde.deserializer().deserialize("t", null)).isNull();
    }
  }

  @Test
  void keySerdeUsesTheKeySubject() {
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, config, true)) {
      serde.serializer().serialize("keyed", SampleRecords.deadLetter());
    }
    InMemorySchemaRegistryClient registry = InMemorySchemaRegistryClient.forScope(scope);
    assertThat(registry.getLatest("keyed-key").schema()).isEqualTo(DeadLetter.getClassSchema());
  }

  @Test
  void recordNameStrategiesNameTheSubjectAfterTheRecord() {
    Map<String, Object> recordName =
        Map.of(
            "schema.registry.url",
            "mock://" + scope,
            "value.subject.name.strategy",
            "io.confluent.kafka.serializers.subject.RecordNameStrategy");
    Map<String, Object> topicRecordName =
        Map.of(
            "schema.registry.url",
            "mock://" + scope,
            "value.subject.name.strategy",
            "TopicRecordNameStrategy");
    try (AvroSerde<DeadLetter> a = AvroSerde.forClass(DeadLetter.class, recordName, false);
        AvroSerde<DeadLetter> b = AvroSerde.forClass(DeadLetter.class, topicRecordName, false)) {
      a.serializer().serialize("dlq", SampleRecords.deadLetter());
      b.serializer().serialize("dlq", SampleRecords.deadLetter());
    }
    InMemorySchemaRegistryClient registry = InMemorySchemaRegistryClient.forScope(scope);
    assertThat(registry.getLatest("io.specwatch.schemas.DeadLetter").version()).isEqualTo(1);
    assertThat(registry.getLatest("dlq-io.specwatch.schemas.DeadLetter").version()).isEqualTo(1);
  }

  @Test
  void withoutAutoRegisterAnUnregisteredSchemaFailsNamingTheTopic() {
    Map<String, Object> noRegister =
        Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", "false");
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, noRegister, false)) {
      assertThatThrownBy(
              () -> serde.serializer().serialize("unregistered", SampleRecords.deadLetter()))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("unregistered-value")
          .hasMessageContaining("topic unregistered");
    }
  }

  @Test
  void withoutAutoRegisterAPreRegisteredSchemaIsLookedUp() {
    int id =
        InMemorySchemaRegistryClient.forScope(scope)
            .register("pre-value", DeadLetter.getClassSchema());
    Map<String, Object> noRegister =
        Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false);
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, noRegister, false)) {
      byte[] bytes = serde.serializer().serialize("pre", SampleRecords.deadLetter());
      assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
    }
  }

  @Test
  void topicSpecCarriesStringKeysAndAvroValues() {
    TopicSpec<String, DeadLetter> spec =
        TopicSpec.stringKeyedAvro(Topics.DEAD_LETTER, DeadLetter.class, config);
    assertThat(spec.name()).isEqualTo("specwatch.dead-letter.v1");
    assertThat(spec.key().serializer().serialize(spec.name(), "src")).isEqualTo("src".getBytes());
    byte[] value = spec.value().serializer().serialize(spec.name(), SampleRecords.deadLetter());
    assertThat(spec.value().deserializer().deserialize(spec.name(), value))
        .isEqualTo(SampleRecords.deadLetter());
    assertThatThrownBy(() -> new TopicSpec<>(" ", spec.key(), spec.value()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void usingAnUnconfiguredSerdeFailsClearly() {
    AvroSerde<DeadLetter> serde = new AvroSerde<>(DeadLetter.class);
    assertThatThrownBy(() -> serde.serializer().serialize("t", SampleRecords.deadLetter()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("configure");
  }

  static byte[] plainAvro(DeadLetter record) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<DeadLetter>(
            DeadLetter.getClassSchema(), SpecificData.getForClass(DeadLetter.class))
        .write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
