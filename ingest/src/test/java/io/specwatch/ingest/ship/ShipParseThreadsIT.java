package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.testing.Ships;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --parse-threads}: however many threads parse a file's batches, the real broker gets the
 * same records in file order (the sending thread takes the batches in order; it alone keeps the
 * per-source state).
 */
class ShipParseThreadsIT {

  /** Lines of the mix: several batches of {@link LineBatch#BATCH_LINES} per parse thread. */
  private static final int LINES = 9 * LineBatch.BATCH_LINES + 77;

  @Test
  void oneOrFourParseThreadsShipTheSameRecordsInFileOrder(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("mixed.log");
    Files.write(log, mixedLines(LINES));
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String one = SpecwatchContainers.uniqueName("it.parse-1");
    String four = SpecwatchContainers.uniqueName("it.parse-4");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(one + ".events", 1, (short) 1),
                  new NewTopic(one + ".dlq", 1, (short) 1),
                  new NewTopic(four + ".events", 1, (short) 1),
                  new NewTopic(four + ".dlq", 1, (short) 1)))
          .all()
          .get();
    }

    ShipResult byOne =
        Ships.shipAndClose(new LogFileShipper(config(bootstrap, registry, one), 1), log);
    ShipResult byFour =
        Ships.shipAndClose(new LogFileShipper(config(bootstrap, registry, four), 4), log);

    assertThat(byOne.linesRead()).isEqualTo(LINES);
    // 14 metric lines in 20, a few of them cut (dead letters), one event each
    assertThat(byOne.recognised()).isGreaterThan(LINES * 13L / 20);
    assertThat(byOne.deadLettered()).isPositive();
    assertThat(byFour).isEqualTo(byOne);
    List<DecodeEvent> eventsOne = events(bootstrap, registry, one, byOne.recognised());
    List<DecodeEvent> eventsFour = events(bootstrap, registry, four, byOne.recognised());
    assertThat(eventsOne).hasSize((int) byOne.recognised());
    assertThat(eventsOne).extracting(DecodeEvent::getLineNumber).isSorted();
    assertThat(eventsOne).extracting(DecodeEvent::getEventId).doesNotHaveDuplicates();
    assertThat(eventsOne)
        .extracting(DecodeEvent::getFormat)
        .contains(
            "sglang.decode_batch",
            "vllm.v1.engine",
            "vllm.v1.spec_decoding.v4",
            "vllm.v0.throughput",
            "vllm.v0.spec_metrics",
            "trtllm.iteration_stats");
    // interval ms follow from the line before of the same rank, kept across batch boundaries
    assertThat(eventsOne)
        .filteredOn(e -> e.getFormat().equals("sglang.decode_batch") && e.getLineNumber() > 20)
        .allMatch(e -> e.getIntervalMs() != null);
    assertThat(eventsFour).isEqualTo(eventsOne);
    assertThat(deadLines(bootstrap, registry, four, byOne.deadLettered()))
        .isEqualTo(deadLines(bootstrap, registry, one, byOne.deadLettered()))
        .hasSize((int) byOne.deadLettered());
  }

  @Test
  void aParseThreadCountOutOfRangeFailsNamingTheSetting() {
    ShipConfig config = config("127.0.0.1:9", "http://127.0.0.1:9", "unused");
    for (int n : new int[] {0, -1, LogFileShipper.MAX_PARSE_THREADS + 1}) {
      assertThatThrownBy(() -> new LogFileShipper(config, n))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "setting 'parse-threads' (SPECWATCH_PARSE_THREADS) must be between 1 and 64, was "
                  + n);
    }
  }

  private static ShipConfig config(String bootstrap, String registry, String prefix) {
    return new ShipConfig(
        bootstrap,
        registry,
        prefix + ".events",
        prefix + ".dlq",
        "parse-threads",
        "gpu-node-01",
        NormaliseConfig.defaults(),
        Map.of());
  }

  /** The topic's events with their ingest time (the one value a second run changes) zeroed. */
  private static List<DecodeEvent> events(
      String bootstrap, String registry, String prefix, long n) {
    List<DecodeEvent> events =
        TopicReader.values(bootstrap, registry, prefix + ".events", DecodeEvent.class, n);
    events.forEach(e -> e.put("ingestTime", Instant.EPOCH));
    return events;
  }

  private static List<String> deadLines(String bootstrap, String registry, String prefix, long n) {
    return TopicReader.values(bootstrap, registry, prefix + ".dlq", DeadLetter.class, n).stream()
        .map(d -> d.getLineNumber() + " " + d.getErrorMessage())
        .toList();
  }

  /**
   * The benchmark's mix (scripts/bench-ingest.sh make_log): per 20 lines 8 SGLang Decode batch, a
   * vLLM V1 pair, a vLLM v0 pair, 2 TensorRT-LLM JSON lines and 6 noise lines; every 997th line cut
   * mid-field.
   */
  static List<String> mixedLines(int n) {
    List<String> lines = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int s = 32400 + i / 20;
      String ts = String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600 % 24, s / 60 % 60, s % 60);
      int k = i % 20;
      int v = (int) ((i * 7919L) % 100);
      String line;
      if (k < 8) {
        line =
            String.format(
                Locale.ROOT,
                "[2025-10-20 %s TP0] Decode batch. #running-req: %d, #token: %d, token usage:"
                    + " 0.%02d, accept len: %.2f, accept rate: %.2f, cuda graph: False, gen"
                    + " throughput (token/s): %.2f, #queue-req: 0, ",
                ts,
                1 + v % 4,
                1000 + i % 50000,
                v,
                1.5 + v / 100.0,
                0.25 + v / 200.0,
                55 + v / 3.0);
        if (i % 997 == 500) {
          line = line.substring(0, line.indexOf("accept len") + 12);
        }
      } else if (k == 8) {
        line =
            "INFO:     127.0.0.1:" + (40000 + i) + " - \"POST /v1/chat/completions HTTP/1.1\" 200";
      } else if (k == 9) {
        line =
            String.format(
                Locale.ROOT,
                "INFO 06-06 %s [loggers.py:116] Engine 000: Avg prompt throughput: %.1f tokens/s,"
                    + " Avg generation throughput: %.1f tokens/s, Running: %d reqs, Waiting: 0"
                    + " reqs, GPU KV cache usage: %.1f%%, Prefix cache hit rate: 40.0%%",
                ts,
                v / 4.0,
                200.0 + v,
                1 + v % 8,
                v / 2.0);
      } else if (k == 10) {
        line =
            String.format(
                Locale.ROOT,
                "INFO 06-06 %s [loggers.py:116] SpecDecoding metrics: Mean acceptance length:"
                    + " %.2f, Accepted throughput: %.2f tokens/s, Drafted throughput: 300.00"
                    + " tokens/s, Accepted: %d tokens, Drafted: 3000 tokens, Per-position"
                    + " acceptance rate: 0.700, 0.500, 0.300, Avg Draft acceptance rate: 50.0%%",
                ts,
                1.5 + v / 100.0,
                100.0 + v,
                1000 + v * 10);
      } else if (k == 11) {
        line =
            String.format(
                Locale.ROOT,
                "INFO 08-01 %s metrics.py:345] Avg prompt throughput: 0.0 tokens/s, Avg"
                    + " generation throughput: %.1f tokens/s, Running: 2 reqs, Swapped: 0 reqs,"
                    + " Pending: 0 reqs, GPU KV cache usage: 5.1%%, CPU KV cache usage: 0.0%%.",
                ts,
                90 + v / 2.0);
      } else if (k == 12) {
        long c = 1 + i / 20;
        line =
            String.format(
                Locale.ROOT,
                "INFO 08-01 %s metrics.py:367] Speculative metrics: Draft acceptance rate: 0.600,"
                    + " System efficiency: 0.400, Number of speculative tokens: 4, Number of"
                    + " accepted tokens: %d, Number of draft tokens: %d, Number of emitted"
                    + " tokens: %d.",
                ts,
                2400 * c,
                4000 * c,
                3000 * c);
      } else if (k == 13 || k == 14) {
        line =
            String.format(
                Locale.ROOT,
                "{\"cpuMemUsage\": 0, \"gpuMemUsage\": 1000, \"iter\": %d, \"iterLatencyMS\":"
                    + " %.1f, \"numActiveRequests\": 4, \"numQueuedRequests\": 0, \"timestamp\":"
                    + " \"06-06-2025 %s.123456\", \"specDecodingStats\": {\"numDraftTokens\": 12,"
                    + " \"numAcceptedTokens\": %d, \"numRequestsWithDraftTokens\": 4,"
                    + " \"acceptanceLength\": 2.5, \"iterLatencyMS\": 6.0, \"draftOverhead\":"
                    + " 0.2}}",
                i,
                25 + v / 10.0,
                ts,
                v % 12);
      } else if (k == 15) {
        line = "[2025-10-20 " + ts + " TP0] WARNING scheduler.py:142: KV cache usage high";
      } else {
        line = "INFO:     127.0.0.1:" + (50000 + i % 10000) + " - \"GET /health HTTP/1.1\" 200 OK";
      }
      lines.add(line);
    }
    return lines;
  }
}
