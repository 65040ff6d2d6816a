package io.specwatch.ingest.parse;

/** Outcome of parsing one line: a value, never an exception. */
public sealed interface ParseResult
    permits ParseResult.Parsed, ParseResult.NotMetric, ParseResult.Failed, ParseResult.Skipped {

  /** The line is a metric line of a known format. */
  record Parsed(MetricLine line) implements ParseResult {}

  /** The line is not a metric line (access log, startup output, blank...). */
  record NotMetric() implements ParseResult {}

  /**
   * The line looks like a metric line of {@code format} but could not be read.
   *
   * @param format format id it looked like
   * @param reason why it failed, naming the field
   */
  record Failed(String format, String reason) implements ParseResult {}

  /**
   * The line is a valid metric line of {@code format} that carries nothing to publish (e.g. an
   * SGLang meta_info of a non-speculative request): counted, not dead-lettered.
   *
   * @param format format id
   * @param reason why it is skipped
   */
  record Skipped(String format, String reason) implements ParseResult {}

  /** The shared not-a-metric result. */
  NotMetric NOT_METRIC = new NotMetric();

  static ParseResult failed(String format, String reason) {
    return new Failed(format, reason);
  }
}
