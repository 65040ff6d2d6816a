package io.specwatch.ingest.parse.instrumented;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.PrefixParser;
import io.specwatch.ingest.parse.RawFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code specwatch.phase_profile} lines as in the seeds: an optional log prefix, then items {@code
 * <Phase name>: <ms> ms/cyc (<pct>%)}, e.g. {@code [2026-11-30 17:00:00 TP0] Draft: 0.61 ms/cyc
 * (2.0%) Target verify: 28.96 ms/cyc (97.0%) Other: 0.30 ms/cyc (1.0%)}. A repeated phase name
 * starts a new report. The cycle time of a report is ms / (pct / 100) of its item with the largest
 * percentage (the least rounding error); every other item with pct > 0 must agree with it within
 * the printed rounding, else the line is a {@link ParseResult.Failed}. Never throws.
 */
public final class PhaseProfileParser implements LineParser {

  public static final String FORMAT = "specwatch.phase_profile";

  private static final Pattern ITEM =
      Pattern.compile(
          "([A-Za-z][A-Za-z0-9 _/.+-]{0,80}?)\\s*:\\s*([-+]?[0-9]+(?:\\.[0-9]+)?|nan|inf)\\s*ms/cyc"
              + "\\s*\\(\\s*([-+]?[0-9]+(?:\\.[0-9]+)?|nan|inf)\\s*%\\s*\\)");

  /** Allowed disagreement between items, in percentage points (printed with one decimal). */
  static final double PCT_TOLERANCE = 0.15;

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public List<String> markers() {
    return List.of("ms/cyc");
  }

  @Override
  public ParseResult parse(String line) {
    if (!line.contains("ms/cyc")) {
      return ParseResult.NOT_METRIC;
    }
    PrefixParser.Split split = PrefixParser.split(line);
    Matcher m = ITEM.matcher(split.body());
    List<PhaseProfileLine.Report> reports = new ArrayList<>();
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    Map<String, double[]> current = new LinkedHashMap<>();
    int found = 0;
    while (m.find()) {
      found++;
      String name = m.group(1).strip();
      double ms;
      double pct;
      try {
        ms = Double.parseDouble(m.group(2));
        pct = Double.parseDouble(m.group(3));
      } catch (NumberFormatException e) {
        return ParseResult.failed(FORMAT, name + ": not a finite number '" + m.group() + "'");
      }
      if (ms < 0 || pct < 0 || pct > 100.05) {
        return ParseResult.failed(
            FORMAT, name + ": ms must be >= 0 and pct 0..100, was '" + m.group() + "'");
      }
      if (current.containsKey(name)) {
        ParseResult failed = close(current, reports);
        if (failed != null) {
          return failed;
        }
      }
      current.put(name, new double[] {ms, pct});
      String key = reports.isEmpty() ? name : name + "#" + reports.size();
      raw.put(key, m.group(2) + " ms/cyc (" + m.group(3) + "%)");
    }
    if (found == 0) {
      return ParseResult.failed(FORMAT, "no '<phase>: <ms> ms/cyc (<pct>%)' item could be read");
    }
    ParseResult failed = close(current, reports);
    if (failed != null) {
      return failed;
    }
    return new ParseResult.Parsed(
        new PhaseProfileLine(split.prefix(), reports, RawFields.owning(raw)));
  }

  /** Finishes the current report; returns a failure when its items disagree. */
  private static ParseResult close(
      Map<String, double[]> items, List<PhaseProfileLine.Report> reports) {
    double[] best = null;
    for (double[] it : items.values()) {
      if (it[1] > 0 && (best == null || it[1] > best[1])) {
        best = it;
      }
    }
    if (best == null) {
      return ParseResult.failed(
          FORMAT, "report " + (reports.size() + 1) + ": no item with a percentage > 0");
    }
    double cycleMs = best[0] / (best[1] / 100.0);
    if (!(cycleMs > 0) || !Double.isFinite(cycleMs)) {
      return ParseResult.failed(
          FORMAT, "report " + (reports.size() + 1) + ": cycle ms is not positive");
    }
    Double draft = null;
    Double verify = null;
    Map<String, Double> phases = new LinkedHashMap<>();
    for (Map.Entry<String, double[]> e : items.entrySet()) {
      double ms = e.getValue()[0];
      double pct = e.getValue()[1];
      phases.put(e.getKey(), ms);
      if (pct > 0) {
        double implied = ms / cycleMs * 100.0;
        // the largest item's rounding carries over: allow its relative error too
        double tol = PCT_TOLERANCE + pct * (0.05 / best[1]) + 0.005 / cycleMs * 100.0;
        if (Math.abs(implied - pct) > tol) {
          return ParseResult.failed(
              FORMAT,
              String.format(
                  Locale.ROOT,
                  "%s: %.2f ms is %.1f%% of the %.2f ms cycle, printed %.1f%%",
                  e.getKey(),
                  ms,
                  implied,
                  cycleMs,
                  pct));
        }
      }
      String lower = e.getKey().toLowerCase(Locale.ROOT);
      if (lower.contains("verify")) {
        verify = (verify == null ? 0 : verify) + ms;
      } else if (lower.contains("draft")) {
        draft = (draft == null ? 0 : draft) + ms;
      }
    }
    reports.add(new PhaseProfileLine.Report(phases, draft, verify, cycleMs));
    items.clear();
    return null;
  }
}
