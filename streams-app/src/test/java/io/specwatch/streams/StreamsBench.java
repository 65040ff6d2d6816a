package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Driver of {@code scripts/bench-streams.sh} (run from the test classpath, no test framework).
 *
 * <ul>
 *   <li>{@code produce BOOTSTRAP REGISTRY TOPIC EVENTS DEPLOYMENTS stream|open}: realistic SGLang
 *       interval events ({@link SyntheticDecodeEvents}), round-robin over the deployments in event
 *       time order. {@code stream}: one line per deployment every 1.2 s of event time, so windows
 *       close as the input advances (steady state). {@code open}: every event inside the first
 *       minute, so every deployment's window is open at the end (state size). With {@code
 *       CONTEXT_TOPIC PLAIN_EVERY}: first one {@link RunContext} per deployment to CONTEXT_TOPIC
 *       ({@link #context}: four models on two hardware classes, TP 8, observed an hour before the
 *       first event), and the first of every PLAIN_EVERY deployments (0: none) non-speculative
 *       ({@link SyntheticDecodeEvents#plain}), so closed windows meet a run context, get a
 *       comparison key and join baselines learned from the plain deployments, as in a fleet whose
 *       shippers publish their run contexts.
 *   <li>{@code await BOOTSTRAP GROUP TOPIC TIMEOUT_S}: polls the group's committed offsets (with
 *       exactly-once they move only when the output and state of those records are committed) until
 *       they reach the end of TOPIC, then until they reach the end of the group's repartition
 *       topics (the rows of the windows the input closed, one commit interval behind per hop), so
 *       the app is stopped with all its output written; prints {@code events=N seconds=S
 *       events_per_s=R ... drain_seconds=D}: the rate over the input's span, counted from the first
 *       commit seen, and D the time from the input's end to the repartitions'. {@code await ...
 *       TIMEOUT_S WARMUP PID...}: the same from the first commit past WARMUP records, and the CPU
 *       seconds each PID used in the input's span ({@code cpu_s=PID:S,...}, from {@code
 *       /proc/PID/stat}; -1 when it could not be read).
 *   <li>{@code baselines BOOTSTRAP REGISTRY TOPIC}: reads the committed window results of TOPIC and
 *       prints {@code rows=N} and the rows per kind of {@code baselineSource} ({@code learned},
 *       {@code static}, each {@code none:<reason>}), so the bench can show which path of the
 *       baseline stage its input took.
 * </ul>
 */
public final class StreamsBench {
  private static final Instant T0 = Instant.parse("2026-03-02T00:00:00Z");

  private StreamsBench() {}

  public static void main(String[] args) throws Exception {
    if ((args.length == 7 || args.length == 9) && args[0].equals("produce")) {
      produce(
          args[1],
          args[2],
          args[3],
          Long.parseLong(args[4]),
          Integer.parseInt(args[5]),
          args[6].equals("open"),
          args.length == 9 ? args[7] : null,
          args.length == 9 ? Integer.parseInt(args[8]) : 0);
    } else if (args.length == 4 && args[0].equals("baselines")) {
      baselines(args[1], args[2], args[3]);
    } else if (args.length >= 5 && args[0].equals("await")) {
      List<Long> pids = new ArrayList<>();
      for (int i = 6; i < args.length; i++) {
        pids.add(Long.parseLong(args[i]));
      }
      await(
          args[1],
          args[2],
          args[3],
          Duration.ofSeconds(Long.parseLong(args[4])),
          args.length >= 6 ? Long.parseLong(args[5]) : 0,
          pids);
    } else {
      System.err.println(
          "usage: StreamsBench produce BOOTSTRAP REGISTRY TOPIC EVENTS DEPLOYMENTS stream|open"
              + " [CONTEXT_TOPIC PLAIN_EVERY]\n"
              + "       StreamsBench await BOOTSTRAP GROUP TOPIC TIMEOUT_S [WARMUP_EVENTS]\n"
              + "       StreamsBench baselines BOOTSTRAP REGISTRY WINDOW_RESULTS_TOPIC");
      System.exit(2);
    }
  }

  static void produce(
      String bootstrap,
      String registry,
      String topic,
      long events,
      int deployments,
      boolean open,
      String contextTopic,
      int plainEvery)
      throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 262_144);
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L << 20);
    SyntheticDecodeEvents gen = new SyntheticDecodeEvents(4242);
    String[] names = new String[deployments];
    for (int d = 0; d < deployments; d++) {
      names[d] = SyntheticDecodeEvents.deployment(d);
    }
    long rounds = (events + deployments - 1) / deployments;
    // open: every round inside [0 s, 55 s) of the first window; stream: 1.2 s per round
    double roundMs = open ? 55_000.0 / rounds : 1_200.0;
    AtomicReference<Exception> failure = new AtomicReference<>();
    if (contextTopic != null) {
      produceContexts(p, registry, contextTopic, names, plainEvery);
    }
    long t0 = System.nanoTime();
    long bytes = 0;
    try (KafkaProducer<String, DecodeEvent> producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(DecodeEvent.class, Map.of("schema.registry.url", registry), false)
                .serializer())) {
      for (long i = 0; i < events; i++) {
        int d = (int) (i % deployments);
        long round = i / deployments;
        long ms = (long) (round * roundMs + d * (roundMs / deployments));
        DecodeEvent e =
            plain(d, plainEvery)
                ? gen.plain(names[d], T0.plusMillis(ms))
                : gen.next(names[d], T0.plusMillis(ms));
        producer.send(
            new ProducerRecord<>(topic, names[d], e),
            (md, ex) -> {
              if (ex != null) {
                failure.compareAndSet(null, ex);
              }
            });
        if (i == 0) {
          bytes = e.toByteBuffer().remaining();
        }
        if (failure.get() != null) {
          throw failure.get();
        }
      }
      producer.flush();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        "produced events=%d deployments=%d mode=%s avro_bytes_per_event=%d seconds=%.1f events_per_s=%.0f"
            + " run_contexts=%d plain_deployments=%d%n",
        events,
        deployments,
        open ? "open" : "stream",
        bytes,
        s,
        events / s,
        contextTopic == null ? 0 : deployments,
        IntStream.range(0, deployments).filter(d -> plain(d, plainEvery)).count());
  }

  /** Whether deployment {@code deployment} of the bench is non-speculative. */
  static boolean plain(int deployment, int plainEvery) {
    return plainEvery > 0 && deployment % plainEvery == 0;
  }

  /** One run context per deployment (see the class comment), acknowledged before events start. */
  private static void produceContexts(
      Properties p, String registry, String topic, String[] names, int plainEvery)
      throws Exception {
    try (KafkaProducer<String, RunContext> producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(RunContext.class, Map.of("schema.registry.url", registry), false)
                .serializer())) {
      List<Future<?>> sent = new ArrayList<>();
      for (int d = 0; d < names.length; d++) {
        RunContext rc = context(d, names[d], plainEvery, T0.minusSeconds(3600));
        sent.add(producer.send(new ProducerRecord<>(topic, names[d], rc)));
      }
      for (Future<?> f : sent) {
        f.get();
      }
    }
  }

  /**
   * Deployment {@code d}'s run context, TP 8. Deployments come in groups of {@code plainEvery}
   * (single ones when 0) that share a model ({@code group % 4}) and a hardware class ({@code group
   * / 4 % 2}), so every group's first deployment, the plain one, teaches its group's comparison
   * keys: 8 keys, each with plain deployments once there are 8 groups.
   */
  static RunContext context(int d, String deployment, int plainEvery, Instant observedAt) {
    boolean plain = plain(d, plainEvery);
    int group = plainEvery > 0 ? d / plainEvery : d;
    boolean h200 = group / MODELS.length % 2 == 0;
    return RunContext.newBuilder()
        .setContextId("ctx-" + deployment)
        .setDeploymentId(deployment)
        .setObservedAt(observedAt)
        .setEngine(Engine.SGLANG)
        .setEngineVersion("0.5.4")
        .setModel(MODELS[group % MODELS.length])
        .setDraftModel(plain ? null : "eagle3-draft")
        .setSpecMethod(plain ? "none" : "EAGLE3")
        .setNumSteps(plain ? null : 3)
        .setGpuModel(h200 ? "H200" : "H100")
        .setGpuCount(8)
        .setHardwareClass(h200 ? "8xH200" : "8xH100")
        .setTp(8)
        .setCudaGraph(true)
        .build();
  }

  private static final String[] MODELS = {
    "moonshotai/Kimi-K2-Instruct",
    "meta-llama/Llama-3.1-70B-Instruct",
    "Qwen/Qwen3-32B",
    "deepseek-ai/DeepSeek-V3"
  };

  /**
   * Waits until {@code group}'s committed offsets reach the end of {@code topic}. Prints the rate
   * from the first commit at or past {@code warmup} records (the sustained rate, once the JIT has
   * compiled the hot paths) and, as {@code whole_*}, from the first commit of all.
   */
  static void baselines(String bootstrap, String registry, String topic) throws Exception {
    Map<String, Object> c = new HashMap<>();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    Map<String, Long> kinds = new TreeMap<>();
    long rows = 0;
    try (KafkaConsumer<String, WindowResult> consumer =
        new KafkaConsumer<>(
            c,
            new StringDeserializer(),
            AvroSerde.forClass(WindowResult.class, Map.of("schema.registry.url", registry), false)
                .deserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      consumer
          .partitionsFor(topic)
          .forEach(pi -> parts.add(new TopicPartition(topic, pi.partition())));
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read " + topic + " to its end in 5 minutes");
        }
        for (ConsumerRecord<String, WindowResult> r : consumer.poll(Duration.ofMillis(500))) {
          rows++;
          String source = r.value().getBaselineSource();
          String kind =
              source == null ? "null" : source.startsWith("none:") ? source : source.split(":")[0];
          kinds.merge(kind, 1L, Long::sum);
        }
      }
    }
    StringBuilder out = new StringBuilder("rows=").append(rows);
    kinds.forEach((k, v) -> out.append(' ').append(k).append('=').append(v));
    System.out.println(out);
  }

  static void await(
      String bootstrap, String group, String topic, Duration timeout, long warmup, List<Long> pids)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
      Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
      d.partitions()
          .forEach(pi -> specs.put(new TopicPartition(topic, pi.partition()), OffsetSpec.latest()));
      long end = 0;
      for (var info : admin.listOffsets(specs).all().get().values()) {
        end += info.offset();
      }
      long deadline = System.nanoTime() + timeout.toNanos();
      long startNanos = -1;
      long startOffset = 0;
      long firstNanos = -1;
      long firstOffset = 0;
      long committed = 0;
      long[] startTicks = null;
      while (committed < end) {
        if (System.nanoTime() > deadline) {
          System.out.printf("timeout: committed %d of %d after %s%n", committed, end, timeout);
          System.exit(1);
        }
        committed = committed(admin, group, topic);
        if (firstNanos < 0 && committed > 0) {
          firstNanos = System.nanoTime();
          firstOffset = committed;
        }
        if (startNanos < 0 && committed > 0 && committed >= Math.min(warmup, end - 1)) {
          startNanos = System.nanoTime();
          startOffset = committed;
          startTicks = cpuTicks(pids);
        }
        if (committed < end) {
          TimeUnit.MILLISECONDS.sleep(100);
        }
      }
      long now = System.nanoTime();
      long[] endTicks = cpuTicks(pids);
      // the rows of the windows the input closed are still on their way through the repartition
      // topics (one commit interval per hop): the app is not stopped before it has consumed those
      // too, so the bench's row counts are complete. The rate is the input's (sustained: after the
      // warm-up the downstream stages trail the input by those hops, at the same rate)
      while (!repartitionsDrained(admin, group)) {
        if (System.nanoTime() > deadline) {
          System.out.printf(
              "timeout: repartition topics of %s not drained after %s%n", group, timeout);
          System.exit(1);
        }
        TimeUnit.MILLISECONDS.sleep(100);
      }
      double drain = (System.nanoTime() - now) / 1e9;
      double s = (now - startNanos) / 1e9;
      long n = end - startOffset;
      double ws = (now - firstNanos) / 1e9;
      long wn = end - firstOffset;
      System.out.printf(
          "events=%d seconds=%.2f events_per_s=%.0f whole_events=%d whole_seconds=%.2f"
              + " whole_events_per_s=%.0f drain_seconds=%.2f%n",
          n, s, n / s, wn, ws, wn / ws, drain);
      if (!pids.isEmpty()) {
        StringBuilder cpu = new StringBuilder("cpu_s=");
        for (int i = 0; i < pids.size(); i++) {
          boolean known = startTicks[i] >= 0 && endTicks[i] >= 0;
          cpu.append(i == 0 ? "" : ",")
              .append(pids.get(i))
              .append(':')
              .append(
                  known
                      ? String.format(Locale.ROOT, "%.2f", (endTicks[i] - startTicks[i]) / 100.0)
                      : "-1");
        }
        System.out.println(cpu);
      }
    }
  }

  /**
   * utime + stime of each process in clock ticks (USER_HZ, 100 on Linux), from {@code
   * /proc/PID/stat}; -1 for a process that cannot be read.
   */
  private static long[] cpuTicks(List<Long> pids) {
    long[] ticks = new long[pids.size()];
    for (int i = 0; i < ticks.length; i++) {
      try {
        String stat = Files.readString(Path.of("/proc", pids.get(i).toString(), "stat"));
        // the fields after the command name, which is in parentheses and may hold spaces
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        ticks[i] = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      } catch (IOException | RuntimeException e) {
        ticks[i] = -1;
      }
    }
    return ticks;
  }

  /**
   * Whether {@code group} has committed every record of its repartition topics ({@code
   * <group>-*-repartition}): committed offset at the high watermark on every partition (the
   * transaction markers included, as ScaleOutIT waits for them).
   */
  private static boolean repartitionsDrained(Admin admin, String group)
      throws InterruptedException, ExecutionException {
    List<String> topics =
        admin.listTopics().names().get().stream()
            .filter(t -> t.startsWith(group + "-") && t.endsWith("-repartition"))
            .toList();
    Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    admin
        .describeTopics(topics)
        .allTopicNames()
        .get()
        .forEach(
            (t, d) ->
                d.partitions()
                    .forEach(
                        pi ->
                            specs.put(new TopicPartition(t, pi.partition()), OffsetSpec.latest())));
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    for (var e : admin.listOffsets(specs).all().get().entrySet()) {
      OffsetAndMetadata c = committed.get(e.getKey());
      if (e.getValue().offset() > (c == null ? 0 : c.offset())) {
        return false;
      }
    }
    return true;
  }

  private static long committed(Admin admin, String group, String topic)
      throws InterruptedException, ExecutionException {
    long sum = 0;
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e :
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet()) {
      if (e.getKey().topic().equals(topic) && e.getValue() != null) {
        sum += e.getValue().offset();
      }
    }
    return sum;
  }
}
