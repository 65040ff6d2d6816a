package io.specwatch.ingest.samples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;

/**
 * Deterministic generator of the committed sample logs in {@code demo/logs/}, modelled on the
 * seeds: Kimi-K2.5 on 8 PCIe GPUs, EAGLE3 with 2 steps (tau ~1.9, ~31 ms cycle, ~61 tok/s per
 * request) versus the non-speculative baseline (12.2 ms step, 82 tok/s). One Decode batch line per
 * 40 decode passes on TP0. Regenerate with {@code main(<repo>/demo/logs)}; {@link SampleLogsTest}
 * checks the committed files equal this output.
 */
public final class SampleLogGenerator {

  static final String EAGLE3_FILE = "kimi-eagle3.log";
  static final String BASELINE_FILE = "kimi-baseline.log";
  static final int PASSES = 40;

  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final LocalDateTime START = LocalDateTime.of(2025, 10, 20, 9, 0, 0);
  private static final long DECODE_MS = 7 * 60 * 1000L;

  private SampleLogGenerator() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "demo/logs");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(EAGLE3_FILE), eagle3(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(BASELINE_FILE), baseline(), StandardCharsets.UTF_8);
  }

  static String eagle3() {
    return generate(true, new Random(20251020L));
  }

  static String baseline() {
    return generate(false, new Random(20251021L));
  }

  private static String generate(boolean spec, Random rnd) {
    StringBuilder out = new StringBuilder(256 * 1024);
    header(out, spec);
    long clockMs = 70_000; // decode starts at 09:01:10
    long end = clockMs + DECODE_MS;
    int request = 0;
    int line = 0;
    while (clockMs < end) {
      request++;
      int prompt = 380 + rnd.nextInt(400);
      int maxTokens = 1024 + 512 * rnd.nextInt(3);
      int running = request % 4 == 0 ? 2 : 1;
      printf(
          out,
          clockMs,
          " TP0",
          "Prefill batch. #new-seq: %d, #new-token: %d, #cached-token: %d,"
              + " token usage: 0.00, #running-req: 0, #queue-req: 0, ",
          running,
          prompt * running,
          0);
      clockMs += 150 + rnd.nextInt(60);
      long generated = 0;
      while (generated < maxTokens && clockMs < end) {
        line++;
        double cycle;
        double tau;
        if (spec) {
          cycle = (running == 1 ? 31.0 : 34.0) + rnd.nextGaussian() * 0.8;
          tau = clamp(1.92 + rnd.nextGaussian() * 0.09, 1.4, 2.7);
        } else {
          cycle = (running == 1 ? 12.2 : 13.4) + rnd.nextGaussian() * 0.25;
          tau = 1.0;
        }
        clockMs += Math.round(PASSES * cycle);
        generated += Math.round(PASSES * tau);
        long tokens = (long) running * (prompt + generated);
        double throughput = running * tau * 1000.0 / cycle;
        String body =
            spec
                ? eagle3Body(running, tokens, tau, throughput)
                : baselineBody(running, tokens, throughput);
        if (spec && line == 57) {
          body = body.substring(0, body.indexOf("accept rate") + 13); // truncated write
        } else if (spec && line == 180) {
          body = eagle3Body(running, tokens, Double.NaN, throughput); // idle-ish division
        }
        printf(out, clockMs, " TP0", "%s", body);
        if (spec && line == 120) {
          out.append('\n'); // a blank line, as left by an interleaved writer
        }
      }
      clockMs += 40 + rnd.nextInt(40);
      printf(
          out,
          clockMs,
          "",
          "INFO:     127.0.0.1:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
          40000 + rnd.nextInt(20000));
      clockMs += 200 + rnd.nextInt(600);
    }
    return out.toString();
  }

  private static String eagle3Body(int running, long tokens, double tau, double throughput) {
    String len = Double.isNaN(tau) ? "nan" : fmt2(tau);
    String rate = Double.isNaN(tau) ? "nan" : fmt2((tau - 1.0) / 2.0);
    return "Decode batch. #running-req: "
        + running
        + ", #token: "
        + tokens
        + ", token usage: "
        + fmt2(tokens / 612_000.0)
        + ", accept len: "
        + len
        + ", accept rate: "
        + rate
        + ", cuda graph: False, gen throughput (token/s): "
        + fmt2(throughput)
        + ", #queue-req: 0, ";
  }

  private static String baselineBody(int running, long tokens, double throughput) {
    return "Decode batch. #running-req: "
        + running
        + ", #token: "
        + tokens
        + ", token usage: "
        + fmt2(tokens / 612_000.0)
        + ", cuda graph: True, gen throughput (token/s): "
        + fmt2(throughput)
        + ", #queue-req: 0, ";
  }

  private static void header(StringBuilder out, boolean spec) {
    String specArgs =
        spec
            ? "speculative_algorithm='EAGLE3', speculative_draft_model_path='/models/kimi-k25-eagle3',"
                + " speculative_num_steps=2, speculative_eagle_topk=1, speculative_num_draft_tokens=3, "
            : "speculative_algorithm=None, ";
    printf(
        out,
        0,
        "",
        "server_args=ServerArgs(model_path='/models/Kimi-K2.5', tp_size=8, "
            + "trust_remote_code=True, mem_fraction_static=0.88, %sdisable_custom_all_reduce=True, "
            + "decode_log_interval=40, host='0.0.0.0', port=30000)",
        specArgs);
    printf(
        out,
        41_000,
        " TP0",
        "Load weight end. type=KimiK25ForCausalLM, dtype=torch.bfloat16,"
            + " avail mem=20.11 GB, mem usage=71.32 GB.");
    printf(out, 48_000, " TP0", "KV Cache is allocated. #tokens: 612000, KV size: 9.41 GB");
    printf(
        out,
        62_000,
        " TP0",
        "Capture cuda graph end. Time elapsed: 14.20 s. mem usage=2.31 GB."
            + " avail mem=6.88 GB.");
    printf(out, 65_000, "", "INFO:     Started server process [%d]", spec ? 48213 : 51877);
    printf(out, 65_000, "", "INFO:     Application startup complete.");
    printf(
        out,
        65_000,
        "",
        "INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)");
    printf(out, 66_000, "", "INFO:     127.0.0.1:39902 - \"GET /health HTTP/1.1\" 200 OK");
  }

  private static void printf(
      StringBuilder out, long clockMs, String rank, String fmt, Object... args) {
    out.append('[')
        .append(START.plusNanos(clockMs * 1_000_000L).format(TS))
        .append(rank)
        .append("] ")
        .append(String.format(Locale.ROOT, fmt, args))
        .append('\n');
  }

  private static String fmt2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }
}
