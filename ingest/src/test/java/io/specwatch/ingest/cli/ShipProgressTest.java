package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.SourceLine;
import io.specwatch.ingest.testing.ManualClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ShipProgressTest {

  /** A clock the test moves. */
  private static SourceLine line(long n) {
    return new SourceLine(n, (n - 1) * 100, new byte[99], "x");
  }

  @Test
  void logLinesEveryIntervalWhenNotATerminal() {
    StringWriter err = new StringWriter();
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T17:00:00Z"));
    ShipProgress p =
        new ShipProgress(new PrintWriter(err), "a.log", 1000, false, Duration.ofSeconds(5), clock);
    for (long n = 1; n <= 4; n++) {
      clock.now = clock.now.plusSeconds(1);
      p.line(line(n), n * 100, new IngestOutcome.Unrecognised());
    }
    assertThat(err.toString()).isEmpty();
    clock.now = clock.now.plusSeconds(1);
    p.line(line(5), 500, new IngestOutcome.Unrecognised());
    assertThat(err.toString())
        .isEqualTo(
            "progress file=a.log 50.0% 500/1000 bytes lines=5 lines/s=1" + System.lineSeparator());
    p.done();
    assertThat(err.toString()).endsWith("lines=5 lines/s=1 done" + System.lineSeparator());
  }

  @Test
  void carriageReturnBarOnATerminal() {
    StringWriter err = new StringWriter();
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T17:00:00Z"));
    ShipProgress p =
        new ShipProgress(new PrintWriter(err), "a.log", 1000, true, Duration.ofSeconds(5), clock);
    clock.now = clock.now.plusMillis(300);
    p.line(line(1), 250, new IngestOutcome.Unrecognised());
    assertThat(err.toString())
        .startsWith("\r[########                      ]  25.0% 250/1000 bytes, 1 lines,")
        .doesNotContain("\n");
    p.done();
    assertThat(err.toString()).endsWith(System.lineSeparator());
  }
}
