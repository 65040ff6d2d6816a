package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DeadLetter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {
  private final String scope = "evolution-test-" + UUID.randomUUID();
  private final InMemorySchemaRegistryClient registry =
      InMemorySchemaRegistryClient.forScope(scope);
  private final Map<String, Object> config = Map.of("schema.registry.url", "mock://" + scope);

  @AfterEach
  void dropScope() {
    InMemorySchemaRegistryClient.dropScope(scope);
  }

  @Test
  void newReaderReadsOldWriterFillingDefaults() throws Exception {
    Schema old = Schemas.without(DeadLetter.getClassSchema(), Set.of("host", "context"));
    int id = registry.register("dlq-value", old);
    GenericRecord written = new GenericData.Record(old);
    written.put("stage", "sink.insert");
    written.put("source", "specwatch.window-results.v1");
    written.put("topic", "specwatch.window-results.v1");
    written.put("partition", 2);
    written.put("offset", 99L);
    written.put("lineNumber", null);
    written.put("format", null);
    written.put("errorClass", "TIMEOUT");
    written.put("errorMessage", "insert timed out");
    written.put("failedAt", SampleRecords.FAILED_AT.toEpochMilli());
    written.put("raw", ByteBuffer.wrap(new byte[] {1, 2, 3}));

    try (AvroDeserializer<DeadLetter> deserializer = new AvroDeserializer<>(DeadLetter.class)) {
      deserializer.configure(config, false);
      DeadLetter read = deserializer.deserialize("dlq", frame(id, old, written));
      assertThat(read.getHost()).isNull();
      assertThat(read.getContext()).isEmpty();
      assertThat(read.getPartition()).isEqualTo(2);
      assertThat(read.getFailedAt()).isEqualTo(SampleRecords.FAILED_AT);
      assertThat(read.getRaw()).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    }
  }

  @Test
  void oldReaderIgnoresFieldsANewerWriterAdded() throws Exception {
    Schema newer =
        Schemas.with(DeadLetter.getClassSchema(), "gpu", Schema.create(Schema.Type.STRING), "n/a");
    int id = registry.register("dlq-value", newer);
    DeadLetter sample = SampleRecords.deadLetter();
    GenericRecord written = new GenericData.Record(newer);
    for (Schema.Field f : DeadLetter.getClassSchema().getFields()) {
      written.put(f.name(), GenericData.get().deepCopy(f.schema(), toGeneric(sample, f)));
    }
    written.put("gpu", "H100");

    try (AvroDeserializer<DeadLetter> deserializer = new AvroDeserializer<>(DeadLetter.class)) {
      deserializer.configure(config, false);
      assertThat(deserializer.deserialize("dlq", frame(id, newer, written))).isEqualTo(sample);
    }
  }

  @Test
  void useLatestVersionWritesWithTheLatestSchemaAndItsId() throws Exception {
    registry.register("latest-value", DeadLetter.getClassSchema());
    Schema newer =
        Schemas.with(DeadLetter.getClassSchema(), "gpu", Schema.create(Schema.Type.STRING), "n/a");
    int latestId = registry.register("latest-value", newer);
    Map<String, Object> latest =
        Map.of(
            "schema.registry.url",
            "mock://" + scope,
            "use.latest.version",
            "true",
            "auto.register.schemas",
            "false");
    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, latest, false)) {
      byte[] bytes = serde.serializer().serialize("latest", SampleRecords.deadLetter());
      assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(latestId);
      GenericRecord asWritten =
          new GenericDatumReader<GenericRecord>(newer)
              .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
      assertThat(asWritten.get("gpu")).hasToString("n/a");
      assertThat(serde.deserializer().deserialize("latest", bytes))
          .isEqualTo(SampleRecords.deadLetter());
    }
  }

  @Test
  void incompatibleWriterFailsWithTopicAndId() throws Exception {
    Schema retyped =
        Schemas.with(
            Schemas.without(DeadLetter.getClassSchema(), Set.of("stage")),
            "stage",
            Schema.create(Schema.Type.INT),
            null);
    registry.setCompatibility("odd-value", "NONE");
    int id = registry.register("odd-value", retyped);
    GenericRecord written = new GenericData.Record(retyped);
    DeadLetter sample = SampleRecords.deadLetter();
    for (Schema.Field f : retyped.getFields()) {
      if (!f.name().equals("stage")) {
        written.put(f.name(), toGeneric(sample, DeadLetter.getClassSchema().getField(f.name())));
      }
    }
    written.put("stage", 7);
    try (AvroDeserializer<DeadLetter> deserializer = new AvroDeserializer<>(DeadLetter.class)) {
      deserializer.configure(config, false);
      byte[] bytes = frame(id, retyped, written);
      assertThatThrownBy(() -> deserializer.deserialize("odd", bytes))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("topic odd")
          .hasMessageContaining("schema id " + id);
    }
  }

  @Test
  void malformedFramesFailWithTheTopic() {
    try (AvroDeserializer<DeadLetter> deserializer = new AvroDeserializer<>(DeadLetter.class)) {
      deserializer.configure(config, false);
      assertThatThrownBy(() -> deserializer.deserialize("short", new byte[] {0, 0, 1}))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("topic short")
          .hasMessageContaining("fewer than");
      assertThatThrownBy(() -> deserializer.deserialize("magic", new byte[] {1, 0, 0, 0, 1, 0}))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("topic magic")
          .hasMessageContaining("magic byte 1");
      assertThatThrownBy(() -> deserializer.deserialize("unknown", new byte[] {0, 0, 0, 0, 42, 0}))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("topic unknown")
          .hasMessageContaining("schema id 42")
          .hasMessageContaining("40403");
    }
  }

  @Test
  void inMemoryRegistryRejectsABackwardIncompatibleChange() {
    registry.register("evolve-value", DeadLetter.getClassSchema());
    Schema withDefault =
        Schemas.with(DeadLetter.getClassSchema(), "gpu", Schema.create(Schema.Type.STRING), "n/a");
    Schema noDefault =
        Schemas.with(DeadLetter.getClassSchema(), "gpu", Schema.create(Schema.Type.STRING), null);
    assertThat(registry.testCompatibility("evolve-value", withDefault)).isTrue();
    assertThat(registry.testCompatibility("evolve-value", noDefault)).isFalse();
    assertThatThrownBy(() -> registry.register("evolve-value", noDefault))
        .isInstanceOf(SchemaRegistryException.class)
        .satisfies(e -> assertThat(((SchemaRegistryException) e).httpStatus()).isEqualTo(409));
    assertThat(registry.register("evolve-value", withDefault)).isEqualTo(2);
    assertThat(registry.getLatest("evolve-value").version()).isEqualTo(2);
  }

  private static Object toGeneric(DeadLetter sample, Schema.Field f) {
    Object value = sample.get(f.name());
    return value instanceof java.time.Instant instant ? instant.toEpochMilli() : value;
  }

  private static byte[] frame(int id, Schema schema, GenericRecord record) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(id).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
