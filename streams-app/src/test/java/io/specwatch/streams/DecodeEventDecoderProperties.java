package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import io.specwatch.serde.InMemorySchemaRegistryClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

/**
 * {@link DecodeEventDecoder} reads exactly what {@code SpecificDatumReader} reads from bodies that
 * {@code SpecificDatumWriter} wrote, over random events (every optional field present or absent,
 * every enum symbol, unicode strings, empty and multi-item arrays and maps); {@link
 * FastDecodeEventDeserializer} falls back to the generic reader for other writer schemas and for
 * records the hand-written decoder rejects.
 */
class DecodeEventDecoderProperties {

  @Test
  void readsTheFieldsOfTheGeneratedSchema() {
    assertThat(DecodeEventDecoder.MATCHES_GENERATED_SCHEMA).isTrue();
    assertThat(DecodeEventDecoder.FIELDS).hasSize(DecodeEvent.getClassSchema().getFields().size());
  }

  @Property(tries = 500)
  void decodesWhatTheGenericReaderDecodes(@ForAll long seed) throws IOException {
    DecodeEvent event = randomEvent(new Random(seed));
    byte[] body = write(event);

    DecodeEvent generic =
        new SpecificDatumReader<>(DecodeEvent.class)
            .read(null, DecoderFactory.get().binaryDecoder(body, null));
    DecodeEvent fast = DecodeEventDecoder.decode(body, 0, body.length);

    assertThat(fast).isEqualTo(generic).isEqualTo(event);
  }

  @Property(tries = 100)
  void rejectsEveryTruncatedBody(@ForAll long seed) throws IOException {
    byte[] body = write(randomEvent(new Random(seed)));
    int cut = new Random(seed).nextInt(body.length);
    assertThatThrownBy(() -> DecodeEventDecoder.decode(Arrays.copyOf(body, cut), 0, cut))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void theDeserializerReadsOtherWriterSchemasWithTheGenericReader() throws IOException {
    Map<String, Object> configs = Map.of("schema.registry.url", "mock://decoder-test");
    Serde<DecodeEvent> serde = FastDecodeEventDeserializer.serde(configs);
    Deserializer<DecodeEvent> d = serde.deserializer();
    DecodeEvent event = randomEvent(new Random(7));

    // the generated schema: fast path, same event (first record self-checked, then the decoder)
    byte[] current = serde.serializer().serialize("t", event);
    assertThat(d.deserialize("t", current)).isEqualTo(event);
    assertThat(d.deserialize("t", current)).isEqualTo(event);
    int currentId = ByteBuffer.wrap(current, 1, 4).getInt();
    assertThat(((FastDecodeEventDeserializer) d).usesDecoder(currentId)).isTrue();

    // an older writer schema without the last field: resolved by the generic reader
    Schema older = withoutLastField(DecodeEvent.getClassSchema());
    int olderId =
        InMemorySchemaRegistryClient.forScope("decoder-test").register("t-value-old", older);
    GenericRecord old = new GenericData.Record(older);
    for (Schema.Field f : older.getFields()) {
      old.put(f.name(), GenericData.get().deepCopy(f.schema(), toGeneric(event.get(f.name()))));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(
        new byte[] {
          0,
          (byte) (olderId >>> 24),
          (byte) (olderId >>> 16),
          (byte) (olderId >>> 8),
          (byte) olderId
        });
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(older).write(old, enc);
    enc.flush();
    DecodeEvent read = d.deserialize("t", out.toByteArray());
    assertThat(read.getRawFields()).isEmpty(); // the reader's default, not the event's map
    assertThat(read.getEventId()).isEqualTo(event.getEventId());
    assertThat(((FastDecodeEventDeserializer) d).usesDecoder(olderId)).isFalse();

    // a body the decoder rejects (trailing byte) still reads through the generic reader
    byte[] trailing = Arrays.copyOf(current, current.length + 1);
    assertThat(d.deserialize("t", trailing)).isEqualTo(event);
  }

  private static Object toGeneric(Object v) {
    if (v instanceof Instant i) {
      return i.toEpochMilli();
    }
    if (v instanceof Enum<?> e) {
      return new GenericData.EnumSymbol(null, e.name());
    }
    return v;
  }

  private static Schema withoutLastField(Schema s) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : s.getFields().subList(0, s.getFields().size() - 1)) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    return Schema.createRecord(s.getName(), s.getDoc(), s.getNamespace(), false, fields);
  }

  private static byte[] write(DecodeEvent event) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<>(DecodeEvent.class).write(event, enc);
    enc.flush();
    return out.toByteArray();
  }

  private static final String[] WORDS = {
    "", "a", "kimi-eagle3", "TP0", "ünïcødé ✓", "x".repeat(300)
  };

  private static String word(Random r) {
    return WORDS[r.nextInt(WORDS.length)] + (r.nextBoolean() ? "" : Integer.toString(r.nextInt()));
  }

  private static <T> T maybe(Random r, T v) {
    return r.nextInt(3) == 0 ? null : v;
  }

  private static long anyLong(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> r.nextLong();
      case 1 -> r.nextInt(100);
      case 2 -> -r.nextInt(100);
      default -> r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
    };
  }

  private static int anyInt(Random r) {
    return r.nextBoolean() ? r.nextInt() : r.nextInt(64);
  }

  private static double anyDouble(Random r) {
    return switch (r.nextInt(5)) {
      case 0 -> Double.NaN;
      case 1 -> -r.nextDouble();
      case 2 -> r.nextBoolean() ? Double.POSITIVE_INFINITY : 0.0;
      default -> r.nextDouble() * 1000;
    };
  }

  static DecodeEvent randomEvent(Random r) {
    List<Double> shares = new ArrayList<>();
    List<Long> counts = new ArrayList<>();
    for (int i = r.nextInt(5); i > 0; i--) {
      shares.add(anyDouble(r));
      counts.add(anyLong(r));
    }
    Map<String, String> raw = new HashMap<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      raw.put(word(r) + i, word(r));
    }
    return DecodeEvent.newBuilder()
        .setEventId(word(r))
        .setDeploymentId(word(r))
        .setHost(word(r))
        .setSource(word(r))
        .setSourceOffset(maybe(r, anyLong(r)))
        .setLineNumber(maybe(r, anyLong(r)))
        .setEngine(Engine.values()[r.nextInt(Engine.values().length)])
        .setFormat(word(r))
        .setKind(EventKind.values()[r.nextInt(EventKind.values().length)])
        .setEventTime(Instant.ofEpochMilli(r.nextLong() >> 20))
        .setIngestTime(Instant.ofEpochMilli(r.nextInt()))
        .setRank(maybe(r, word(r)))
        .setTpRank(maybe(r, anyInt(r)))
        .setDpRank(maybe(r, anyInt(r)))
        .setEpRank(maybe(r, anyInt(r)))
        .setRequestId(maybe(r, word(r)))
        .setPromptCategory(maybe(r, word(r)))
        .setIntervalMs(maybe(r, anyDouble(r)))
        .setDecodePasses(maybe(r, anyLong(r)))
        .setCycles(maybe(r, anyLong(r)))
        .setRunningRequests(maybe(r, anyInt(r)))
        .setQueuedRequests(maybe(r, anyInt(r)))
        .setTokenUsage(maybe(r, anyDouble(r)))
        .setAcceptLength(maybe(r, anyDouble(r)))
        .setAcceptRate(maybe(r, anyDouble(r)))
        .setRawAcceptRate(maybe(r, anyDouble(r)))
        .setRawAcceptRateDefinition(maybe(r, word(r)))
        .setAcceptedTokens(maybe(r, anyLong(r)))
        .setDraftedTokens(maybe(r, anyLong(r)))
        .setEmittedTokens(maybe(r, anyLong(r)))
        .setPerPositionAcceptance(shares)
        .setPerPositionAccepted(counts)
        .setGenThroughputTokS(maybe(r, anyDouble(r)))
        .setDraftMs(maybe(r, anyDouble(r)))
        .setVerifyMs(maybe(r, anyDouble(r)))
        .setOverheadMs(maybe(r, anyDouble(r)))
        .setCycleMs(maybe(r, anyDouble(r)))
        .setCudaGraph(maybe(r, r.nextBoolean()))
        .setSpecEnabled(r.nextBoolean())
        .setRunContextId(maybe(r, word(r)))
        .setRawFields(raw)
        .build();
  }
}
