package io.specwatch.e2e.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.HttpSchemaRegistryClient;
import io.specwatch.serde.RegistryConfig;
import io.specwatch.serde.SchemaRegistryClient;
import io.specwatch.serde.SchemaRegistryException;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.ZeroLossOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, schema evolution, on the fault suite's pipeline ({@link FaultPipeline}: its own broker
 * and ClickHouse, the shared registry with its global BACKWARD rule, {@code ingest tail},
 * streams-app and the sink as separate JVMs) and checked by the same zero-loss oracle as {@link
 * PipelineFaultIT} (every event id in decode_events, none duplicated after FINAL, none extra; every
 * closed (deployment, minute) window once with the exact count), each scenario followed by the
 * oracle's negative control against ClickHouse. v2 of {@code DecodeEvent} is v1 plus an optional
 * field with a default ({@link DecodeEventV2}); the "v2" apps are the real apps with the compiled
 * v2 class ahead of their class path, so they read (resolving the writer schema by id) and write
 * with v2.
 *
 * <ul>
 *   <li>(a) {@code evolution-v1-producer-v2-consumers}: the current shipper (v1) keeps writing
 *       while streams-app and the sink are restarted as v2 consumers (a rolling upgrade, consumers
 *       first as BACKWARD asks) and v2 is registered; every event after the restart is read by v2
 *       apps from v1 data.
 *   <li>(b) {@code evolution-v2-producer-v1-consumers}: streams-app and the sink back on the
 *       current code (v1); the shipper is restarted on the same checkpoint as a v2 producer
 *       mid-file, so the topic holds v1 and v2 records of one deployment (the v2 ones carry the new
 *       field, which the v1 readers skip).
 * </ul>
 *
 * Both also assert which schema ids the records carry, that the apps' output shows which version
 * they ran with, and that nothing was dead-lettered. An incompatible v3 is rejected by the
 * registry.
 *
 * <p>Short variant (default): 2 x 300 lines per scenario. Long variant ({@code
 * -Dspecwatch.faults.long=true}): 5x the lines and the engine writing faster while the apps are
 * switched.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SchemaEvolutionFaultIT {

  private static final boolean LONG = Boolean.getBoolean("specwatch.faults.long");
  private static final int SCALE = LONG ? 5 : 1;
  private static final Duration SETTLE = Duration.ofMinutes(LONG ? 6 : 3);
  private static final LocalDateTime BASE =
      LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS).minusDays(12);

  @TempDir static Path tmp;
  private static FaultPipeline pipeline;
  private static KafkaProbe probe;
  private static FaultOracle oracle;
  private static SchemaRegistryClient registry;
  private static Path v2Classes;
  private final ExecutorService writer = Executors.newSingleThreadExecutor();

  @BeforeAll
  static void start() throws Exception {
    v2Classes = DecodeEventV2.compile(tmp.resolve("decode-event-v2"));
    pipeline = new FaultPipeline(tmp, LONG);
    probe = new KafkaProbe(pipeline);
    oracle = new FaultOracle(pipeline);
    registry =
        new HttpSchemaRegistryClient(
            RegistryConfig.from(Map.of("schema.registry.url", pipeline.registry)));
    pipeline.record(
        "[faults] "
            + (LONG ? "LONG" : "SHORT")
            + " variant, schema evolution: broker "
            + pipeline.bootstrap
            + ", ClickHouse "
            + pipeline.clickhouseUrl
            + ", database "
            + pipeline.database);
  }

  @AfterAll
  static void stop() {
    if (registry != null) {
      registry.close();
    }
    if (pipeline != null) {
      pipeline.close();
    }
  }

  @AfterEach
  void stopWriter() throws InterruptedException {
    writer.shutdownNow();
    writer.awaitTermination(10, TimeUnit.SECONDS);
  }

  private static FaultScenario scenario(String name, int day) throws Exception {
    return FaultScenario.create(tmp, BASE, name, day);
  }

  /** Appends {@code perTick} lines every 50 ms until stopped (the engine keeps logging). */
  private Future<?> keepWriting(EngineLog log, AtomicBoolean stopFlag) {
    int perTick = LONG ? 10 : 3;
    return writer.submit(
        () -> {
          while (!stopFlag.get()) {
            log.metrics(perTick);
            Thread.sleep(50);
          }
          return null;
        });
  }

  /** Records of the three dead-letter topics (ingest, streams-app, sink). */
  private static long deadLetters() throws Exception {
    return probe.records(pipeline.ingestDeadLetters)
        + probe.records(pipeline.streamsDeadLetters)
        + probe.records(pipeline.sinkDeadLetters);
  }

  private static String subject() {
    return pipeline.events + "-value";
  }

  /** The oracle is clean, nothing was dead-lettered, and the negative control fails it. */
  private static void verify(FaultScenario s, long deadBefore, long t0) throws Exception {
    FaultOracle.Outcome outcome = oracle.settle(s.name(), s.log(), SETTLE);
    ZeroLossOracle.Report r = outcome.report();
    assertThat(r.clean()).as(r.details(s.name())).isTrue();
    assertThat(r.windowsChecked()).as("closed windows compared").isGreaterThan(5);
    assertThat(deadLetters() - deadBefore).as("records dead-lettered").isZero();
    oracle.negativeControl(s.name(), s.log(), outcome, s.start());
    pipeline.record(
        String.format(
            "[faults] %-28s done in %d s", s.name(), (System.nanoTime() - t0) / 1_000_000_000L));
  }

  private static String output(JvmProcess p) throws Exception {
    return Files.readString(p.log());
  }

  @Test
  @Order(1)
  void v1ProducerWithV2StreamsAppAndSink() throws Exception {
    long t0 = System.nanoTime();
    FaultScenario s = scenario("evolution-v1-producer-v2-consumers", 1);
    long deadBefore = deadLetters();
    int half = 300 * SCALE;
    s.log().metrics(half);
    AtomicBoolean stopWriting = new AtomicBoolean();
    try (JvmProcess tail =
        pipeline.startShipper(
            "tail-evo-v1", s.dir(), s.log().deployment(), s.checkpoints(), false)) {
      // the first half is loaded by the current (v1) apps, then v1 is registered
      Await.until(
          "first half in decode_events",
          SETTLE,
          () -> pipeline.rawRows(s.log().deployment()) >= half);
      int v1Id = registry.lookup(subject(), DecodeEvent.getClassSchema()).id();
      // consumers upgrade first (BACKWARD) while the engine keeps writing, then v2 is registered
      Future<?> writing = keepWriting(s.log(), stopWriting);
      pipeline.restartConsumers(v2Classes, "-v2");
      int v2Id = registry.register(subject(), DecodeEventV2.schema());
      assertThat(v2Id).isNotEqualTo(v1Id);
      Await.until(
          "v2 streams-app and sink loaded DecodeEvent v2",
          Duration.ofMinutes(2),
          () ->
              output(pipeline.streams("streams-1")).contains(DecodeEventV2.LOADED_MARKER)
                  && output(pipeline.sink()).contains(DecodeEventV2.LOADED_MARKER));
      stopWriting.set(true);
      writing.get(10, TimeUnit.SECONDS);
      // the second half is written after v2 is registered: only v2 apps read it
      s.log().metrics(half);
      verify(s, deadBefore, t0);
      // the producer stayed on v1 (it looks v1 up although v2 is the subject's latest version)
      Map<Integer, Long> ids = probe.schemaIds(pipeline.events, s.log().deployment());
      pipeline.record(
          String.format("[faults] %-28s schema id -> records %s", s.name(), ids.toString()));
      assertThat(ids.keySet()).containsExactly(v1Id);
      assertThat(ids.get(v1Id)).isGreaterThanOrEqualTo(s.log().ids().size());
      assertThat(output(tail)).doesNotContain(DecodeEventV2.LOADED_MARKER);
      assertThat(tail.isAlive()).isTrue();
      tail.stop(Duration.ofSeconds(30));
    }
  }

  @Test
  @Order(2)
  void v2ProducerWithV1StreamsAppAndSink() throws Exception {
    long t0 = System.nanoTime();
    FaultScenario s = scenario("evolution-v2-producer-v1-consumers", 2);
    // the consumers back on the current code (v1 reader schema)
    pipeline.restartConsumers(null, "-v1");
    long deadBefore = deadLetters();
    int v1Id = registry.lookup(subject(), DecodeEvent.getClassSchema()).id();
    int half = 300 * SCALE;
    s.log().metrics(half);
    AtomicBoolean stopWriting = new AtomicBoolean();
    Future<?> writing;
    try (JvmProcess v1 =
        pipeline.startShipper(
            "tail-evo-v1b", s.dir(), s.log().deployment(), s.checkpoints(), false)) {
      Await.until(
          "first half in decode_events",
          SETTLE,
          () -> pipeline.rawRows(s.log().deployment()) >= half);
      // the producer upgrades mid-file while the engine keeps writing: same checkpoint, v2 class
      writing = keepWriting(s.log(), stopWriting);
      assertThat(v1.stop(Duration.ofSeconds(30))).as(v1.tail(4000)).isZero();
    }
    try (JvmProcess v2 =
        pipeline.startShipper(
            "tail-evo-v2", s.dir(), s.log().deployment(), s.checkpoints(), false, v2Classes)) {
      Await.until(
          "the v2 shipper loaded DecodeEvent v2",
          Duration.ofMinutes(1),
          () -> output(v2).contains(DecodeEventV2.LOADED_MARKER));
      stopWriting.set(true);
      writing.get(10, TimeUnit.SECONDS);
      s.log().metrics(half);
      verify(s, deadBefore, t0);
      // the topic holds both versions for this deployment: v1 before the switch, v2 after it
      Map<Integer, Long> ids = probe.schemaIds(pipeline.events, s.log().deployment());
      pipeline.record(
          String.format("[faults] %-28s schema id -> records %s", s.name(), ids.toString()));
      assertThat(ids).containsKey(v1Id).hasSize(2);
      int v2Id = ids.keySet().stream().filter(id -> id != v1Id).findFirst().orElseThrow();
      assertThat(registry.getSchemaById(v2Id).getField(DecodeEventV2.NEW_FIELD))
          .as("schema %d has the new field", v2Id)
          .isNotNull();
      assertThat(ids.get(v1Id)).isGreaterThanOrEqualTo(half);
      // the second half and the closing line, at least
      assertThat(ids.get(v2Id)).isGreaterThanOrEqualTo(half + 1);
      // the consumers ran on v1 throughout
      assertThat(output(pipeline.streams("streams-1"))).doesNotContain(DecodeEventV2.LOADED_MARKER);
      assertThat(output(pipeline.sink())).doesNotContain(DecodeEventV2.LOADED_MARKER);
      assertThat(v2.isAlive()).isTrue();
      v2.stop(Duration.ofSeconds(30));
    }
  }

  @Test
  @Order(3)
  void incompatibleV3IsRejectedNamingTheSubject() {
    String subject = SpecwatchContainers.uniqueName("evo-c-events") + "-value";
    try (SchemaRegistryClient client =
        new HttpSchemaRegistryClient(
            RegistryConfig.from(
                Map.of("schema.registry.url", SpecwatchContainers.registryUrl())))) {
      client.register(subject, DecodeEvent.getClassSchema());
      client.register(subject, DecodeEventV2.schema());
      assertThat(client.testCompatibility(subject, DecodeEventV2.incompatibleV3())).isFalse();
      assertThatThrownBy(() -> client.register(subject, DecodeEventV2.incompatibleV3()))
          .isInstanceOf(SchemaRegistryException.class)
          .hasMessageContaining(subject)
          .satisfies(
              e ->
                  assertThat(((SchemaRegistryException) e).httpStatus())
                      .as(e.getMessage())
                      .isEqualTo(409));
    }
  }
}
