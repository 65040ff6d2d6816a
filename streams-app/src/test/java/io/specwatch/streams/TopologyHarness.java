package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** The real topology on a TopologyTestDriver with every topic it reads and writes. */
final class TopologyHarness implements AutoCloseable {
  static final String IN = "decode-events";
  static final String CONTEXTS = "run-context";
  static final String OUT = "window-results";
  static final String DLQ = "dead-letter";

  final StreamsAppConfig config;
  final TopologyTestDriver driver;
  final TestInputTopic<String, DecodeEvent> input;
  final TestInputTopic<String, byte[]> rawInput;
  final TestInputTopic<String, RunContext> contexts;
  final TestOutputTopic<String, WindowResult> output;
  final TestOutputTopic<String, DeadLetter> deadLetters;
  final AvroSerde<DecodeEvent> eventSerde;

  TopologyHarness(Path stateDir, StaticBaselines statics, Duration baselineMaxAge) {
    this(stateDir, statics, baselineMaxAge, Map.of());
  }

  /** With {@code overrides} on top of the app's Streams properties. */
  TopologyHarness(
      Path stateDir,
      StaticBaselines statics,
      Duration baselineMaxAge,
      Map<String, String> overrides) {
    config =
        new StreamsAppConfig(
            "unused:9092",
            "mock://topology-test",
            "topology-test",
            stateDir,
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            IN,
            CONTEXTS,
            OUT,
            DLQ,
            statics,
            baselineMaxAge,
            Map.of());
    driver =
        new TopologyTestDriver(
            TopologyFactory.build(config.topologyInputs()), props(config, overrides), T0);
    Map<String, Object> serde = config.serdeConfig();
    eventSerde = AvroSerde.forClass(DecodeEvent.class, serde, false);
    input = driver.createInputTopic(IN, Serdes.String().serializer(), eventSerde.serializer());
    rawInput = driver.createInputTopic(IN, Serdes.String().serializer(), new ByteArraySerializer());
    contexts =
        driver.createInputTopic(
            CONTEXTS,
            Serdes.String().serializer(),
            AvroSerde.forClass(RunContext.class, serde, false).serializer());
    output =
        driver.createOutputTopic(
            OUT,
            Serdes.String().deserializer(),
            AvroSerde.forClass(WindowResult.class, serde, false).deserializer());
    deadLetters =
        driver.createOutputTopic(
            DLQ,
            Serdes.String().deserializer(),
            AvroSerde.forClass(DeadLetter.class, serde, false).deserializer());
  }

  private static Properties props(StreamsAppConfig config, Map<String, String> overrides) {
    Properties p = config.kafkaProperties();
    p.putAll(overrides);
    return p;
  }

  TopologyHarness(Path stateDir) {
    this(stateDir, StaticBaselines.none(), Duration.ofHours(1));
  }

  void send(DecodeEvent e) {
    input.pipeInput(e.getDeploymentId(), e);
  }

  void context(RunContext rc) {
    contexts.pipeInput(rc.getDeploymentId(), rc);
  }

  /** A run context observed an hour before T0. */
  static RunContext.Builder context(String deployment, String model, int tp) {
    return RunContext.newBuilder()
        .setContextId("ctx-" + deployment)
        .setDeploymentId(deployment)
        .setObservedAt(T0.minusSeconds(3600))
        .setEngine(Engine.SGLANG)
        .setModel(model)
        .setSpecMethod("EAGLE3")
        .setTp(tp);
  }

  /** The results read so far, by {@link #rowKey}; fails on a duplicate or a key mismatch. */
  Map<String, WindowResult> rows() {
    return byRow(output.readKeyValuesToList());
  }

  static Map<String, WindowResult> byRow(List<KeyValue<String, WindowResult>> kvs) {
    Map<String, WindowResult> m = new TreeMap<>();
    for (KeyValue<String, WindowResult> kv : kvs) {
      if (!kv.key.equals(kv.value.getDeploymentId())) {
        throw new AssertionError("key " + kv.key + " differs from " + kv.value);
      }
      if (m.put(rowKey(kv.value), kv.value) != null) {
        throw new AssertionError("two results for " + rowKey(kv.value));
      }
    }
    return m;
  }

  /** {@code deployment@secondsAfterT0/spec|nonspec/category/bucket}. */
  static String rowKey(WindowResult r) {
    return r.getDeploymentId()
        + "@"
        + (r.getWindowStart().getEpochSecond() - T0.getEpochSecond())
        + "/"
        + (r.getSpecEnabled() ? "spec" : "nonspec")
        + "/"
        + r.getPromptCategory()
        + "/"
        + r.getBatchBucket();
  }

  @Override
  public void close() {
    driver.close();
  }
}
