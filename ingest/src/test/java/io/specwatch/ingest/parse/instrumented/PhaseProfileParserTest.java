package io.specwatch.ingest.parse.instrumented;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.ingest.parse.ParseResult;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class PhaseProfileParserTest {

  private final PhaseProfileParser parser = new PhaseProfileParser();

  private PhaseProfileLine parsed(String line) {
    ParseResult r = parser.parse(line);
    assertThat(r).isInstanceOf(ParseResult.Parsed.class);
    return (PhaseProfileLine) ((ParseResult.Parsed) r).line();
  }

  @Test
  void readsTheContractExampleWithItsPrefix() {
    PhaseProfileLine p =
        parsed(
            "[2026-11-30 17:00:00 TP0] Draft: 0.61 ms/cyc (2.0%) Target verify: 28.96 ms/cyc"
                + " (97.0%) Other: 0.30 ms/cyc (1.0%)");
    assertThat(p.prefix().timestamp()).isEqualTo(LocalDateTime.parse("2026-11-30T17:00:00"));
    assertThat(p.prefix().tpRank()).isZero();
    assertThat(p.reports()).hasSize(1);
    PhaseProfileLine.Report r = p.reports().get(0);
    assertThat(r.draftMs()).isEqualTo(0.61);
    assertThat(r.verifyMs()).isEqualTo(28.96);
    assertThat(r.cycleMs()).isCloseTo(28.96 / 0.97, within(1e-9));
    assertThat(r.phasesMs()).containsKeys("Draft", "Target verify", "Other");
    assertThat(p.rawFields()).containsEntry("Target verify", "28.96 ms/cyc (97.0%)");
  }

  @Test
  void theSeedLineIsFiveReports() {
    PhaseProfileLine p =
        parsed(
            "Target verify: 28.96 ms/cyc (97.0%) Target verify: 28.94 ms/cyc (96.9%) Target"
                + " verify: 28.96 ms/cyc (96.8%) Target verify: 28.95 ms/cyc (97.1%) Target"
                + " verify: 28.94 ms/cyc (96.9%)");
    assertThat(p.reports()).hasSize(5);
    assertThat(p.reports())
        .extracting(PhaseProfileLine.Report::verifyMs)
        .containsExactly(28.96, 28.94, 28.96, 28.95, 28.94);
    assertThat(p.reports().get(2).cycleMs()).isCloseTo(28.96 / 0.968, within(1e-9));
    assertThat(p.reports().get(0).draftMs()).isNull();
    assertThat(p.rawFields()).containsKeys("Target verify", "Target verify#4");
  }

  @Test
  void itemsThatDisagreeAreDeadLettered() {
    ParseResult r = parser.parse("Draft: 5.00 ms/cyc (2.0%) Target verify: 28.96 ms/cyc (97.0%)");
    assertThat(r).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) r).reason()).startsWith("Draft: 5.00 ms is 16.7%");
    assertThat(parser.parse("profile: nan ms/cyc")).isInstanceOf(ParseResult.Failed.class);
    assertThat(parser.parse("Target verify: nan ms/cyc (97.0%)"))
        .isInstanceOf(ParseResult.Failed.class);
    assertThat(parser.parse("Idle: 1.00 ms/cyc (0.0%)")).isInstanceOf(ParseResult.Failed.class);
  }

  @Test
  void otherLinesAreNotClaimed() {
    assertThat(parser.parse("[2026-11-30 17:00:00 TP0] Decode batch. #running-req: 4"))
        .isSameAs(ParseResult.NOT_METRIC);
  }
}
