package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.RawFields;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import io.specwatch.serde.AvroSerializer;
import io.specwatch.serde.InMemorySchemaRegistryClient;
import io.specwatch.serde.SerdeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * The hand-written {@link DecodeEventEncoder} writes exactly the bytes of Avro's {@code
 * SpecificDatumWriter} plus the Confluent header, for generated events covering every field null
 * and set, empty and non-empty lists and maps, non-ASCII and surrogate strings, NaN (also non
 * canonical), infinities, -0.0 and extreme longs; and {@link FastEventSerializer} gives the
 * registry serializer's bytes.
 */
class DecodeEventEncoderProperties {

  @Example
  void encoderFollowsTheSchema() {
    assertThat(DecodeEventEncoder.matchesSchema()).isTrue();
  }

  @Property(tries = 3000)
  void sameBytesAsSpecificDatumWriter(@ForAll long seed, @ForAll int schemaId) throws IOException {
    DecodeEvent e = event(new Random(seed));
    assertThat(new DecodeEventEncoder().encode(schemaId, e)).isEqualTo(reference(schemaId, e));
    // the parsers' raw fields carry their encoding (RawFields), copied instead of written
    DecodeEvent parsed =
        DecodeEvent.newBuilder(e).setRawFields(RawFields.copyOf(e.getRawFields())).build();
    assertThat(parsed.getRawFields()).isInstanceOf(RawFields.class);
    assertThat(new DecodeEventEncoder().encode(schemaId, parsed)).isEqualTo(reference(schemaId, e));
  }

  @Property(tries = 200)
  void reusedEncoderAndSerializerAgreeWithTheRegistrySerializer(@ForAll long seed) {
    InMemorySchemaRegistryClient client = new InMemorySchemaRegistryClient();
    SerdeConfig config = SerdeConfig.from(Map.of("schema.registry.url", "http://unused:1"), false);
    AvroSerializer<DecodeEvent> registry = new AvroSerializer<>(client, config, false);
    FastEventSerializer fast = new FastEventSerializer(registry, false);
    Random r = new Random(seed);
    for (int i = 0; i < 20; i++) {
      DecodeEvent e = event(r);
      assertThat(fast.serialize("t", e)).isEqualTo(registry.serialize("t", e));
    }
  }

  @Property(tries = 200)
  void reusedEncoderGivesTheSameBytesForEqualCopiesAndChangedValuesOfCachedStrings(
      @ForAll long seed) throws IOException {
    // the cached string fields (deployment, host, source, format, rank, definition, context)
    // repeat as the same instance, as equal copies (a rank tag is a new String on every line), or
    // change: a reused encoder must write each event as a fresh writer does
    DecodeEventEncoder reused = new DecodeEventEncoder();
    Random r = new Random(seed);
    String[] pool = {"TP0", "DP1 TP1", "", "ü-ß", "kimi-k25-eagle3"};
    for (int i = 0; i < 40; i++) {
      DecodeEvent e = event(r);
      e.put("deploymentId", new String(pool[r.nextInt(pool.length)]));
      e.put("host", pool[r.nextInt(pool.length)]);
      e.put("source", new String(pool[r.nextInt(pool.length)]));
      e.put("format", new String(pool[r.nextInt(pool.length)]));
      e.put("rank", r.nextInt(4) == 0 ? null : new String(pool[r.nextInt(pool.length)]));
      e.put(
          "rawAcceptRateDefinition",
          r.nextInt(4) == 0 ? null : new String(pool[r.nextInt(pool.length)]));
      e.put("runContextId", r.nextInt(4) == 0 ? null : new String(pool[r.nextInt(pool.length)]));
      assertThat(reused.encode(7, e)).isEqualTo(reference(7, e));
    }
  }

  private static byte[] reference(int schemaId, DecodeEvent e) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(schemaId >>> 24);
    out.write(schemaId >>> 16);
    out.write(schemaId >>> 8);
    out.write(schemaId);
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<DecodeEvent>(
            DecodeEvent.getClassSchema(), SpecificData.getForSchema(DecodeEvent.getClassSchema()))
        .write(e, enc);
    enc.flush();
    return out.toByteArray();
  }

  static DecodeEvent event(Random r) {
    return DecodeEvent.newBuilder()
        .setEventId(str(r))
        .setDeploymentId(str(r))
        .setHost(str(r))
        .setSource(str(r))
        .setSourceOffset(optLong(r))
        .setLineNumber(optLong(r))
        .setEngine(Engine.values()[r.nextInt(Engine.values().length)])
        .setFormat(str(r))
        .setKind(EventKind.values()[r.nextInt(EventKind.values().length)])
        .setEventTime(instant(r))
        .setIngestTime(instant(r))
        .setRank(optStr(r))
        .setTpRank(optInt(r))
        .setDpRank(optInt(r))
        .setEpRank(optInt(r))
        .setRequestId(optStr(r))
        .setPromptCategory(optStr(r))
        .setIntervalMs(optDouble(r))
        .setDecodePasses(optLong(r))
        .setCycles(optLong(r))
        .setRunningRequests(optInt(r))
        .setQueuedRequests(optInt(r))
        .setTokenUsage(optDouble(r))
        .setAcceptLength(optDouble(r))
        .setAcceptRate(optDouble(r))
        .setRawAcceptRate(optDouble(r))
        .setRawAcceptRateDefinition(optStr(r))
        .setAcceptedTokens(optLong(r))
        .setDraftedTokens(optLong(r))
        .setEmittedTokens(optLong(r))
        .setPerPositionAcceptance(doubles(r))
        .setPerPositionAccepted(longs(r))
        .setGenThroughputTokS(optDouble(r))
        .setDraftMs(optDouble(r))
        .setVerifyMs(optDouble(r))
        .setOverheadMs(optDouble(r))
        .setCycleMs(optDouble(r))
        .setCudaGraph(r.nextInt(3) == 0 ? null : r.nextBoolean())
        .setSpecEnabled(r.nextBoolean())
        .setRunContextId(optStr(r))
        .setRawFields(map(r))
        .build();
  }

  private static final String[] PIECES = {
    "",
    "a",
    "sglang.decode_batch",
    "/var/log/x.log",
    "é",
    "日本",
    "\uD83D\uDE00",
    "\uD800",
    "\u0000",
    "accept len",
    "1.50",
    " "
  };

  private static String str(Random r) {
    StringBuilder b = new StringBuilder();
    int n = r.nextInt(4) == 0 ? r.nextInt(60) : r.nextInt(4);
    for (int i = 0; i < n; i++) {
      b.append(PIECES[r.nextInt(PIECES.length)]);
    }
    return b.toString();
  }

  private static String optStr(Random r) {
    return r.nextInt(3) == 0 ? null : str(r);
  }

  private static long anyLong(Random r) {
    return switch (r.nextInt(6)) {
      case 0 -> Long.MIN_VALUE;
      case 1 -> Long.MAX_VALUE;
      case 2 -> r.nextInt(200) - 100;
      case 3 -> r.nextInt();
      default -> r.nextLong();
    };
  }

  private static Long optLong(Random r) {
    return r.nextInt(3) == 0 ? null : anyLong(r);
  }

  private static Integer optInt(Random r) {
    if (r.nextInt(3) == 0) {
      return null;
    }
    return switch (r.nextInt(4)) {
      case 0 -> Integer.MIN_VALUE;
      case 1 -> Integer.MAX_VALUE;
      case 2 -> r.nextInt(200) - 100;
      default -> r.nextInt();
    };
  }

  private static double anyDouble(Random r) {
    return switch (r.nextInt(10)) {
      case 0 -> Double.NaN;
      case 1 -> Double.longBitsToDouble(0x7ff8000000000001L ^ (r.nextLong() & 0xfffffffffL));
      case 2 -> Double.POSITIVE_INFINITY;
      case 3 -> Double.NEGATIVE_INFINITY;
      case 4 -> -0.0;
      case 5 -> Double.MIN_VALUE;
      case 6 -> 1e308;
      default -> r.nextDouble() * 1000;
    };
  }

  private static Double optDouble(Random r) {
    return r.nextInt(3) == 0 ? null : anyDouble(r);
  }

  private static Instant instant(Random r) {
    return Instant.ofEpochMilli(
        r.nextBoolean() ? 1_760_000_000_000L + r.nextInt() : r.nextLong() / 1_000_000);
  }

  private static List<Double> doubles(Random r) {
    List<Double> l = new ArrayList<>();
    int n = r.nextInt(3) == 0 ? 0 : r.nextInt(70);
    for (int i = 0; i < n; i++) {
      l.add(anyDouble(r));
    }
    return l;
  }

  private static List<Long> longs(Random r) {
    List<Long> l = new ArrayList<>();
    int n = r.nextInt(3) == 0 ? 0 : r.nextInt(70);
    for (int i = 0; i < n; i++) {
      l.add(anyLong(r));
    }
    return l;
  }

  private static Map<String, String> map(Random r) {
    Map<String, String> m = new LinkedHashMap<>();
    int n = r.nextInt(3) == 0 ? 0 : r.nextInt(80);
    for (int i = 0; i < n; i++) {
      m.put(str(r) + i, str(r));
    }
    return m;
  }
}
