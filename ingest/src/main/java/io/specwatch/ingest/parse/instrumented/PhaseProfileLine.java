package io.specwatch.ingest.parse.instrumented;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import java.util.List;
import java.util.Map;

/**
 * A per-phase profile line: one or more reports of {@code <Phase>: <ms> ms/cyc (<pct>%)} items.
 *
 * @param prefix bracketed prefix (time, rank), or {@link LinePrefix#NONE}
 * @param reports the reports, in line order (a repeated phase name starts a new one)
 * @param rawFields every item as printed ({@code <phase>} or {@code <phase>#<report>} to {@code
 *     "<ms> ms/cyc (<pct>%)"})
 */
public record PhaseProfileLine(
    LinePrefix prefix, List<Report> reports, Map<String, String> rawFields) implements MetricLine {

  /**
   * One report.
   *
   * @param phasesMs phase name to ms per cycle, in line order
   * @param draftMs sum of phases whose name contains "draft", or null
   * @param verifyMs sum of phases whose name contains "verify", or null
   * @param cycleMs ms / (pct / 100) of the item with the largest percentage
   */
  public record Report(
      Map<String, Double> phasesMs, Double draftMs, Double verifyMs, double cycleMs) {
    public Report {
      phasesMs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(phasesMs));
    }
  }

  public PhaseProfileLine {
    reports = List.copyOf(reports);
    rawFields = io.specwatch.ingest.parse.RawFields.copyOf(rawFields);
  }

  @Override
  public String format() {
    return PhaseProfileParser.FORMAT;
  }
}
