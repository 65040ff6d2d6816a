package io.specwatch.sink.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.sink.ReplayRange;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ReplayCommandTest {

  private static final String FROM = "2026-03-14T10:00:00Z";
  private static final String TO = "2026-03-14T11:00:00Z";

  private static ReplayCommand parse(String... args) {
    ReplayCommand replay = new ReplayCommand();
    new CommandLine(replay).parseArgs(args);
    return replay;
  }

  @Test
  void byEventTimeByDefaultInItsOwnGroup() {
    ReplayCommand c = parse("--from", FROM, "--to", TO, "--group-id", "live");
    ReplayRange r = c.replayRange();
    assertThat(r.by()).isEqualTo(ReplayRange.By.EVENT_TIME);
    assertThat(r.from()).isEqualTo(Instant.parse(FROM));
    assertThat(r.to()).isEqualTo(Instant.parse(TO));
    assertThat(r.maxClockSkew()).isEqualTo(ReplayRange.DEFAULT_MAX_CLOCK_SKEW);
    assertThat(r.maxDelay()).isEmpty();
    assertThat(c.config().groupId()).isEqualTo("live-replay");
  }

  @Test
  void eventTimeBoundsInBothDurationForms() {
    ReplayRange r =
        parse("--from", FROM, "--to", TO, "--max-clock-skew", "5m", "--max-delay", "P2D")
            .replayRange();
    assertThat(r.maxClockSkew()).isEqualTo(Duration.ofMinutes(5));
    assertThat(r.maxDelay()).hasValue(Duration.ofDays(2));
  }

  @Test
  void recordTimeMode() {
    ReplayRange r = parse("--from", FROM, "--to", TO, "--by", "record-time").replayRange();
    assertThat(r.by()).isEqualTo(ReplayRange.By.RECORD_TIME);
    assertThat(r.stopTimestamp()).hasValue(Instant.parse(TO).toEpochMilli());
  }

  @Test
  void badInputFailsNamingTheOption() {
    assertThatThrownBy(() -> parse("--from", TO, "--to", FROM).replayRange())
        .hasMessageContaining("--from must be before --to");
    assertThatThrownBy(() -> parse("--from", "yesterday", "--to", TO).replayRange())
        .hasMessageContaining("--from: not an ISO-8601 instant");
    assertThatThrownBy(() -> parse("--from", FROM, "--to", TO, "--by", "arrival").replayRange())
        .hasMessageContaining("--by: expected event-time or record-time");
    assertThatThrownBy(
            () ->
                parse("--from", FROM, "--to", TO, "--by", "record-time", "--max-delay", "1h")
                    .replayRange())
        .hasMessageContaining("--max-delay applies to --by event-time only");
    assertThatThrownBy(
            () ->
                parse("--from", FROM, "--to", TO, "--by", "record-time", "--max-clock-skew", "1h")
                    .replayRange())
        .hasMessageContaining("--max-clock-skew applies to --by event-time only");
    assertThatThrownBy(() -> parse("--from", FROM, "--to", TO, "--max-delay", "soon"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--max-delay");
    assertThatThrownBy(
            () -> parse("--from", FROM, "--to", TO, "--max-clock-skew", "-PT1H").replayRange())
        .hasMessageContaining("--max-clock-skew must not be negative");
  }
}
