package io.specwatch.ingest.tail;

import io.specwatch.ingest.normalise.EventIds;
import io.specwatch.ingest.normalise.FileFingerprint;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An engine log written by a test, thread-safe: appends SGLang Decode batch lines and remembers,
 * for every line, the event id the shipper must produce, its line number and the byte offset just
 * past it (what a checkpoint covering it must reach).
 */
final class MetricLog {

  /** What a written metric line must become. */
  record Expected(long lineNumber, long endOffset) {}

  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  final Path path;
  final String source;
  private final String host;
  private final Map<String, Expected> expected = new ConcurrentHashMap<>();
  private String fingerprint;
  private long offset;
  private long lineNumber;
  private int seq;
  private LocalDateTime time = LocalDateTime.of(2025, 10, 20, 9, 0, 0);

  MetricLog(Path path, String host) {
    this.path = path;
    this.source = path.toAbsolutePath().normalize().toString();
    this.host = host;
  }

  /** The first line, unique to this file, which fixes its fingerprint. */
  synchronized MetricLog header(String generation) throws IOException {
    append(new StringBuilder("# engine log " + generation + " started"), false);
    fingerprint = FileFingerprint.of(path);
    return this;
  }

  /** Appends n Decode batch lines in one write. */
  synchronized void metrics(int n) throws IOException {
    StringBuilder batch = new StringBuilder(n * 200);
    for (int i = 0; i < n; i++) {
      time = time.plusSeconds(1);
      seq++;
      batch.append(
          "["
              + TS.format(time)
              + " TP0] Decode batch. #running-req: 1, #token: "
              + seq
              + ", token usage: 0.00, accept len: 1.89, cuda graph: True, gen throughput"
              + " (token/s): 80.43, #queue-req: 0, ");
      batch.append('\n');
    }
    append(batch, true);
  }

  private void append(StringBuilder lines, boolean metric) throws IOException {
    int start = 0;
    long pos = offset;
    for (int i = 0; i < lines.length(); i++) {
      if (lines.charAt(i) == '\n') {
        String text = lines.substring(start, i);
        pos += text.getBytes(StandardCharsets.UTF_8).length + 1;
        lineNumber++;
        if (metric) {
          expected.put(
              EventIds.of(host, source, fingerprint, pos - text.length() - 1, text),
              new Expected(lineNumber, pos));
        }
        start = i + 1;
      }
    }
    if (!metric) {
      lineNumber++;
      lines.append('\n');
      pos += lines.toString().getBytes(StandardCharsets.UTF_8).length;
    }
    try (OutputStream out =
        Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      out.write(lines.toString().getBytes(StandardCharsets.UTF_8));
    }
    offset = pos;
  }

  /** logrotate's rename + create: the file becomes {@code <name>.1}, a new one begins. */
  synchronized void renameAndCreate(String generation) throws IOException {
    Files.move(
        path, path.resolveSibling(path.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
    offset = 0;
    lineNumber = 0;
    header(generation);
  }

  /** logrotate's copytruncate: copied to {@code <name>.1}, truncated in place, a new header. */
  synchronized void copyTruncate(String generation) throws IOException {
    Files.copy(
        path, path.resolveSibling(path.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
    Files.write(path, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
    offset = 0;
    lineNumber = 0;
    header(generation);
  }

  /** Event id -> line number, of every metric line written so far. */
  Map<String, Long> lineNumbers() {
    Map<String, Long> numbers = new HashMap<>();
    expected.forEach((id, e) -> numbers.put(id, e.lineNumber()));
    return numbers;
  }

  /** Event id -> expected line, of every metric line written so far. */
  Map<String, Expected> expected() {
    return Map.copyOf(expected);
  }

  synchronized long offset() {
    return offset;
  }
}
