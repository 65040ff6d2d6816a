package io.specwatch.ingest.cli;

import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.ShipObserver;
import io.specwatch.ingest.ship.SourceLine;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;

/**
 * Progress of {@code ship} on stderr: on a terminal a carriage-return bar redrawn every 250 ms,
 * otherwise one log line per {@code interval} ({@code progress file=... 42.0% 1200000/2857000 bytes
 * lines=8000 lines/s=40000}), and a last line when done.
 */
final class ShipProgress implements ShipObserver {

  private static final Duration BAR_REFRESH = Duration.ofMillis(250);
  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final String file;
  private final long total;
  private final boolean terminal;
  private final Duration interval;
  private final Clock clock;
  private final long startMs;
  private long lastMs;
  private long lines;
  private long offset;

  ShipProgress(
      PrintWriter err,
      String file,
      long totalBytes,
      boolean terminal,
      Duration interval,
      Clock clock) {
    this.err = err;
    this.file = file;
    this.total = totalBytes;
    this.terminal = terminal;
    this.interval = terminal ? BAR_REFRESH : interval;
    this.clock = clock;
    this.startMs = clock.millis();
    this.lastMs = startMs;
  }

  @Override
  public void line(SourceLine line, long endOffset, IngestOutcome outcome) {
    lines++;
    offset = total > 0 ? Math.min(endOffset, total) : endOffset;
    long now = clock.millis();
    if (now - lastMs >= interval.toMillis()) {
      lastMs = now;
      print(now, false);
    }
  }

  /** The final line. */
  void done() {
    print(clock.millis(), true);
  }

  private void print(long now, boolean last) {
    double pct = total <= 0 ? 100.0 : Math.min(100.0, 100.0 * offset / total);
    double secs = Math.max(0.001, (now - startMs) / 1000.0);
    long rate = Math.round(lines / secs);
    if (terminal) {
      int filled = (int) Math.round(pct / 100.0 * WIDTH);
      err.printf(
          Locale.ROOT,
          "\r[%s%s] %5.1f%% %d/%d bytes, %d lines, %d lines/s%s",
          "#".repeat(filled),
          " ".repeat(WIDTH - filled),
          pct,
          offset,
          total,
          lines,
          rate,
          last ? System.lineSeparator() : "");
    } else {
      err.printf(
          Locale.ROOT,
          "progress file=%s %.1f%% %d/%d bytes lines=%d lines/s=%d%s%n",
          file,
          pct,
          offset,
          total,
          lines,
          rate,
          last ? " done" : "");
    }
    err.flush();
  }
}
