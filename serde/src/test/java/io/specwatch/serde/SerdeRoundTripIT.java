package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/** The serde against the real registry. */
class SerdeRoundTripIT {
  private static Map<String, Object> config() {
    return Map.of("schema.registry.url", SpecwatchContainers.registryUrl());
  }

  @Test
  void roundTripsAndAnotherInstanceReadsIt() {
    String topic = SpecwatchContainers.uniqueName("it.serde");
    DeadLetter record = SampleRecords.deadLetter();
    byte[] bytes;
    try (AvroSerde<DeadLetter> writer = AvroSerde.forClass(DeadLetter.class, config(), false)) {
      bytes = writer.serializer().serialize(topic, record);
      assertThat(writer.deserializer().deserialize(topic, bytes)).isEqualTo(record);
    }
    try (AvroSerde<DeadLetter> reader = AvroSerde.forClass(DeadLetter.class, config(), false)) {
      assertThat(reader.deserializer().deserialize(topic, bytes)).isEqualTo(record);
    }
    int id =
        new HttpSchemaRegistryClient(RegistryConfig.from(config()))
            .lookup(topic + "-value", DeadLetter.getClassSchema())
            .id();
    assertThat(bytes[0]).isZero();
    assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
  }

  @Test
  void readsRecordsWrittenWithAnOlderRegisteredSchema() throws Exception {
    String topic = SpecwatchContainers.uniqueName("it.serde-old");
    Schema old = Schemas.without(DeadLetter.getClassSchema(), Set.of("host", "context"));
    int oldId =
        new HttpSchemaRegistryClient(RegistryConfig.from(config())).register(topic + "-value", old);
    GenericRecord written = new GenericData.Record(old);
    written.put("stage", "streams.process");
    written.put("source", topic);
    written.put("errorClass", "X");
    written.put("errorMessage", "y");
    written.put("failedAt", SampleRecords.FAILED_AT.toEpochMilli());
    written.put("raw", ByteBuffer.wrap(new byte[] {9}));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(oldId).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(old).write(written, encoder);
    encoder.flush();

    try (AvroSerde<DeadLetter> serde = AvroSerde.forClass(DeadLetter.class, config(), false)) {
      DeadLetter read = serde.deserializer().deserialize(topic, out.toByteArray());
      assertThat(read.getStage()).isEqualTo("streams.process");
      assertThat(read.getHost()).isNull();
      assertThat(read.getContext()).isEmpty();
      assertThat(read.getFailedAt()).isEqualTo(SampleRecords.FAILED_AT);

      // the current schema is a BACKWARD-compatible successor: writing registers version 2
      byte[] current = serde.serializer().serialize(topic, SampleRecords.deadLetter());
      assertThat(ByteBuffer.wrap(current, 1, 4).getInt()).isNotEqualTo(oldId);
    }
  }
}
