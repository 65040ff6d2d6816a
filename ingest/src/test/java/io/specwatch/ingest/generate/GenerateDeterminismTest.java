package io.specwatch.ingest.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Same seed: identical bytes (replay and realtime alike); another seed: other bytes. */
class GenerateDeterminismTest {

  private static final Instant START = Instant.parse("2026-11-30T16:00:00Z");

  @TempDir Path tmp;

  private Map<String, byte[]> run(String scenario, long seed, boolean realtime, String dir)
      throws Exception {
    Path out = tmp.resolve(dir);
    GenerateConfig c =
        new GenerateConfig(
            scenario, 15, seed, START, Duration.ofMinutes(2), out, null, realtime, 1200);
    Generate.run(
        c,
        nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)),
        new PrintWriter(new StringWriter()));
    return files(out);
  }

  private static Map<String, byte[]> files(Path root) throws IOException {
    Map<String, byte[]> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        m.put(root.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    return m;
  }

  @Test
  void demoIsByteForByteDeterministicForASeed() throws Exception {
    Map<String, byte[]> a = run("demo", 7, false, "a");
    Map<String, byte[]> b = run("demo", 7, false, "b");
    Map<String, byte[]> c = run("demo", 8, false, "c");
    assertThat(a.keySet())
        .contains("manifest.json", "kimi-k25-eagle3/engine.log", "kimi-k25-eagle3/profile.log")
        .isEqualTo(b.keySet());
    a.forEach((name, bytes) -> assertThat(b.get(name)).as(name).isEqualTo(bytes));
    for (String name :
        List.of("kimi-k25-eagle3/engine.log", "qwen3-30b-a3b-eagle3-trtllm/engine.log")) {
      assertThat(c.get(name)).as(name).isNotEqualTo(a.get(name));
    }
  }

  @Test
  void fleetIsDeterministicAndRealtimeWritesTheSameLines() throws Exception {
    Map<String, byte[]> replay = run("fleet", 11, false, "replay");
    Map<String, byte[]> again = run("fleet", 11, false, "again");
    long t0 = System.nanoTime();
    Map<String, byte[]> live = run("fleet", 11, true, "live");
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertThat(replay.keySet()).isEqualTo(again.keySet()).isEqualTo(live.keySet());
    assertThat(replay.keySet().stream().filter(n -> n.endsWith("engine.log"))).hasSize(15);
    replay.forEach((name, bytes) -> assertThat(again.get(name)).as(name).isEqualTo(bytes));
    // realtime: same lines; the manifest differs only in its mode
    replay.forEach(
        (name, bytes) -> {
          if (!name.equals(Manifest.FILE)) {
            assertThat(live.get(name)).as(name).isEqualTo(bytes);
          }
        });
    // 2 minutes of event time at x1200 take at least 0.1 s of wall time
    assertThat(seconds).isGreaterThanOrEqualTo(0.1);
  }
}
