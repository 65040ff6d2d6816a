package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DeadLetter;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * {@link AvroSerializer#reusingLastEncoding()}: a record sent to two topics in a row is encoded
 * once, and every call still returns the bytes of a serializer without reuse (the old path),
 * including the second subject's schema id in the header.
 */
class AvroSerializerReuseTest {
  /** A registry giving each subject its own id (the in-memory one shares ids by content). */
  private static final class PerSubjectIds implements SchemaRegistryClient {
    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<Integer, Schema> schemas = new HashMap<>();

    @Override
    public synchronized int register(String subject, Schema schema) {
      int id = ids.computeIfAbsent(subject + "|" + schema, k -> 1_000 + 7 * ids.size());
      schemas.put(id, schema);
      return id;
    }

    @Override
    public synchronized Schema getSchemaById(int id) {
      return schemas.get(id);
    }

    @Override
    public RegisteredSchema lookup(String subject, Schema schema) {
      return new RegisteredSchema(subject, register(subject, schema), 1, schema);
    }

    @Override
    public RegisteredSchema getLatest(String subject) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
      return true;
    }

    @Override
    public void setCompatibility(String subject, String level) {}
  }

  private static final Map<String, Object> CONFIG =
      Map.of("schema.registry.url", "http://unused:8081");

  @Test
  void everyCallGivesTheBytesOfAnEncodingWithItsTopicsSchemaId() {
    PerSubjectIds registry = new PerSubjectIds();
    AvroSerializer<DeadLetter> reusing =
        new AvroSerializer<DeadLetter>(registry, SerdeConfig.from(CONFIG, false), false)
            .reusingLastEncoding();
    AvroSerializer<DeadLetter> plain =
        new AvroSerializer<>(registry, SerdeConfig.from(CONFIG, false), false);
    Random r = new Random(42);
    List<String> topics = List.of("results", "alert-repartition", "baseline-repartition");
    DeadLetter previous = SampleRecords.deadLetter();
    for (int i = 0; i < 500; i++) {
      // the same record again (to the same or another topic) or a new one
      DeadLetter record = r.nextInt(3) == 0 ? previous : sample(r);
      String topic = topics.get(r.nextInt(topics.size()));
      assertThat(reusing.serialize(topic, record))
          .as("record %d to %s", i, topic)
          .isEqualTo(plain.serialize(topic, record));
      previous = record;
    }
    // the ids differ per topic, so a copied header would have shown
    assertThat(id(plain.serialize("results", previous)))
        .isNotEqualTo(id(plain.serialize("alert-repartition", previous)));
  }

  @Test
  void theSecondCallForTheSameRecordDoesNotEncodeItAgain() {
    // the contract of the option: the caller does not change a record between the two calls;
    // a change made anyway is not seen, which shows the second call copied the first encoding
    AvroSerializer<DeadLetter> reusing =
        new AvroSerializer<DeadLetter>(new PerSubjectIds(), SerdeConfig.from(CONFIG, false), false)
            .reusingLastEncoding();
    DeadLetter record = SampleRecords.deadLetter();
    byte[] first = reusing.serialize("results", record);
    record.put(DeadLetter.getClassSchema().getField("stage").pos(), "changed after serialising");
    byte[] second = reusing.serialize("alert-repartition", record);
    assertThat(ByteBuffer.wrap(second, 5, second.length - 5))
        .isEqualTo(ByteBuffer.wrap(first, 5, first.length - 5));
    assertThat(id(second)).isNotEqualTo(id(first));
    // another record in between: encoded again, the change is seen
    reusing.serialize("results", SampleRecords.deadLetter());
    byte[] third = reusing.serialize("alert-repartition", record);
    assertThat(third).isNotEqualTo(second);
  }

  private static int id(byte[] bytes) {
    return ByteBuffer.wrap(bytes, 1, 4).getInt();
  }

  private static DeadLetter sample(Random r) {
    return DeadLetter.newBuilder(SampleRecords.deadLetter())
        .setOffset((long) r.nextInt(1_000_000))
        .setErrorMessage("message " + r.nextInt(1_000))
        .setPartition(r.nextBoolean() ? null : r.nextInt(12))
        .build();
  }
}
