package io.specwatch.e2e.faults;

import io.specwatch.ingest.normalise.EventIds;
import io.specwatch.ingest.normalise.FileFingerprint;
import io.specwatch.testkit.ZeroLossOracle.WindowKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * An SGLang engine log written by a fault scenario, and what it must become, computed from the
 * bytes written (not from the pipeline): the event id of every metric line ({@link EventIds} over
 * host, tailed path, the file generation's first-line fingerprint, byte offset and text, exactly
 * what the shipper computes from the same bytes) and the number of events per (deployment, minute)
 * of the printed timestamps. Thread-safe. Rotations (rename and copytruncate) start a new
 * generation with its own header line, so its fingerprint and ids differ; hostile lines are counted
 * separately (they must be dead-lettered, not become events).
 */
final class EngineLog {

  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:00");

  final Path path;
  private final String source;
  private final String host;
  private final String deployment;
  private final Set<String> ids = new HashSet<>();
  private final Map<WindowKey, Long> windows = new HashMap<>();
  private final Random random = new Random(42);
  private String fingerprint;
  private long offset;
  private int generation;
  private int seq;
  private long hostile;
  private long writtenLines;
  private LocalDateTime time;
  // end offset (after its LF) of every metric line of the current generation, ascending
  private long[] metricEnds = new long[1024];
  private int metricCount;

  EngineLog(Path path, String host, String deployment, LocalDateTime start) throws IOException {
    this.path = path;
    this.source = path.toAbsolutePath().normalize().toString();
    this.host = host;
    this.deployment = deployment;
    this.time = start;
    newGeneration();
  }

  /** The first line of a (new) file generation, which fixes its fingerprint. */
  private void newGeneration() throws IOException {
    generation++;
    offset = 0;
    metricCount = 0;
    byte[] header =
        ("# engine log "
                + deployment
                + " generation "
                + generation
                + " pid "
                + random.nextLong()
                + "\n")
            .getBytes(StandardCharsets.UTF_8);
    try (OutputStream out =
        Files.newOutputStream(
            path,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      out.write(header);
    }
    offset = header.length;
    fingerprint = FileFingerprint.of(path);
  }

  /** Appends n Decode batch lines (one second apart) in one write. */
  synchronized void metrics(int n) throws IOException {
    ByteArrayOutputStream batch = new ByteArrayOutputStream(n * 200);
    for (int i = 0; i < n; i++) {
      time = time.plusSeconds(1);
      addMetric(batch, metricLine(time, ++seq));
    }
    append(batch.toByteArray());
  }

  /** One metric line at {@code at} (the closing line of a scenario: far after the data). */
  synchronized void metricAt(LocalDateTime at) throws IOException {
    ByteArrayOutputStream batch = new ByteArrayOutputStream();
    time = at;
    addMetric(batch, metricLine(at, ++seq));
    append(batch.toByteArray());
  }

  private static String metricLine(LocalDateTime t, int seq) {
    return "["
        + TS.format(t)
        + " TP0] Decode batch. #running-req: 4, #token: "
        + seq
        + ", token usage: 0.02, accept len: 2.25, cuda graph: True, gen throughput (token/s): 240.00,"
        + " #queue-req: 0, ";
  }

  private void addMetric(ByteArrayOutputStream batch, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    long start = offset + batch.size();
    ids.add(EventIds.of(host, source, fingerprint, start, text));
    windows.merge(new WindowKey(deployment, MINUTE.format(time)), 1L, Long::sum);
    batch.writeBytes(bytes);
    batch.write('\n');
    writtenLines++;
    if (metricCount == metricEnds.length) {
      metricEnds = Arrays.copyOf(metricEnds, metricCount * 2);
    }
    metricEnds[metricCount++] = offset + batch.size();
  }

  /**
   * Appends {@code n} hostile lines that an SGLang parser claims (they carry its marker) but must
   * dead-letter, cycling through: non-numeric, out-of-range, invalid UTF-8, binary bytes, nan,
   * duplicate field, a NEL (C2 85) and a U+2028 (E2 80 A8) plus CR inside the field list; plus
   * {@code huge} lines of 600 KiB (over the 256 KiB line limit: LineTooLong). Each is mixed with a
   * valid metric line every 10 hostile ones. Returns the hostile count.
   */
  synchronized long hostile(int n, int huge) throws IOException {
    ByteArrayOutputStream batch = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      time = time.plusSeconds(i % 10 == 0 ? 1 : 0);
      String head = "[" + TS.format(time) + " TP0] Decode batch. #running-req: ";
      String tail = ", gen throughput (token/s): 240.00, #queue-req: 0, ";
      batch.writeBytes(head.getBytes(StandardCharsets.UTF_8));
      switch (i % 8) {
        case 0 -> ascii(batch, "4, #token: 12x0, token usage: 0.02, accept len: 2.x5" + tail);
        case 1 ->
            ascii(
                batch,
                "99999999999999999999999, #token: 1, token usage: 0.02, accept len: 1e999" + tail);
        case 2 -> {
          ascii(batch, "4, #token: 1, token usage: 0.02, accept len: ");
          batch.write(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, (byte) 0x28}, 0, 4);
          ascii(batch, tail);
        }
        case 3 -> {
          ascii(batch, "4, #token: 1, token usage: 0.02, accept len: ");
          // random bytes, except LF (which ends the line): 0x85 after 0xC2 (NEL) and E2 80 A8/A9
          // (U+2028/9) included, which the SGLang parser dead-letters (docs/DESIGN.md)
          for (int b = 0; b < 64; b++) {
            int v = random.nextInt(256);
            batch.write(v == '\n' ? 0 : v);
          }
          ascii(batch, tail);
        }
        case 4 -> ascii(batch, "4, #token: 1, token usage: 0.02, accept len: nan" + tail);
        case 6 -> {
          // UTF-8 of U+0085 (NEL) inside the value: a Unicode line terminator, not a line end
          ascii(batch, "4, #token: 1, token usage: 0.02, accept len: 2.");
          batch.write(new byte[] {(byte) 0xc2, (byte) 0x85}, 0, 2);
          ascii(batch, "5" + tail);
        }
        case 7 -> {
          // UTF-8 of U+2028 (line separator) and a CR inside the field list
          ascii(batch, "4, #token: 1, token usage: 0.02, accept len: ");
          batch.write(new byte[] {(byte) 0xe2, (byte) 0x80, (byte) 0xa8}, 0, 3);
          ascii(batch, "2.5, cuda graph: True\r" + tail);
        }
        default ->
            ascii(
                batch,
                "4, #token: 1, token usage: 0.02, accept len: 2.00, accept len: 3.00" + tail);
      }
      batch.write('\n');
      hostile++;
      writtenLines++;
      if (i % 10 == 9) {
        time = time.plusSeconds(1);
        addMetric(batch, metricLine(time, ++seq));
      }
    }
    for (int i = 0; i < huge; i++) {
      ascii(batch, "[" + TS.format(time) + " TP0] Decode batch. #running-req: 4, #token: ");
      byte[] filler = new byte[600 * 1024];
      Arrays.fill(filler, (byte) '7');
      batch.writeBytes(filler);
      batch.write('\n');
      hostile++;
      writtenLines++;
    }
    append(batch.toByteArray());
    return n + huge;
  }

  private static void ascii(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  /** logrotate's rename + create: the file is moved to {@code <name>.1} and a new one begins. */
  synchronized void rotateByRename() throws IOException {
    Files.move(
        path,
        path.resolveSibling(path.getFileName() + "." + generation),
        StandardCopyOption.ATOMIC_MOVE);
    newGeneration();
  }

  /**
   * logrotate's copytruncate: copied to {@code <name>.N}, truncated in place, a new header written.
   */
  synchronized void copyTruncate() throws IOException {
    Files.copy(
        path,
        path.resolveSibling(path.getFileName() + "." + generation),
        StandardCopyOption.REPLACE_EXISTING);
    newGeneration(); // TRUNCATE_EXISTING on the same inode, then the new first line
  }

  private void append(byte[] bytes) throws IOException {
    try (OutputStream out = Files.newOutputStream(path, StandardOpenOption.APPEND)) {
      out.write(bytes);
    }
    offset += bytes.length;
  }

  synchronized Set<String> ids() {
    return Set.copyOf(ids);
  }

  synchronized Map<WindowKey, Long> windows() {
    return Map.copyOf(windows);
  }

  synchronized LocalDateTime time() {
    return time;
  }

  synchronized long offset() {
    return offset;
  }

  synchronized long hostileLines() {
    return hostile;
  }

  synchronized long lines() {
    return writtenLines;
  }

  /**
   * Metric lines of the current generation that end at or before {@code checkpoint} (a byte offset
   * after a line's LF): the events a shipper has acknowledged when it checkpoints there.
   */
  synchronized int metricLinesUpTo(long checkpoint) {
    int i = Arrays.binarySearch(metricEnds, 0, metricCount, checkpoint);
    return i >= 0 ? i + 1 : -i - 1;
  }

  String source() {
    return source;
  }

  synchronized String fingerprint() {
    return fingerprint;
  }

  String deployment() {
    return deployment;
  }

  /** The minute after {@code t}, as the oracle's window bound. */
  static String minuteOf(LocalDateTime t) {
    return MINUTE.format(t.truncatedTo(ChronoUnit.MINUTES));
  }
}
