package io.specwatch.ingest.normalise;

import java.time.ZoneId;
import java.util.Objects;

/**
 * How printed values become normalised fields.
 *
 * @param decodeLogInterval SGLang {@code --decode-log-interval}: decode passes per line (default
 *     40)
 * @param logZone zone of the printed local times (default UTC)
 * @param acceptRateDefinition meaning of a printed {@code accept rate}
 * @param speculativeNumSteps draft steps per cycle (vLLM: num_speculative_tokens), needed to
 *     convert the older accept-rate definition and to count vLLM drafts when the line does not
 *     tell; null when unknown
 * @param logYear year of vLLM's year-less timestamps; null takes the ingest time's year (the
 *     previous year when that would put the line more than a day in the future)
 * @param rawFields which printed fields the events keep in rawFields (default {@link
 *     RawFieldsPolicy#UNTYPED})
 */
public record NormaliseConfig(
    int decodeLogInterval,
    ZoneId logZone,
    AcceptRateDefinition acceptRateDefinition,
    Integer speculativeNumSteps,
    Integer logYear,
    RawFieldsPolicy rawFields) {

  public static final int DEFAULT_DECODE_LOG_INTERVAL = 40;

  public NormaliseConfig {
    if (decodeLogInterval < 1) {
      throw new IllegalArgumentException(
          "decode-log-interval must be >= 1, was " + decodeLogInterval);
    }
    Objects.requireNonNull(logZone, "log-zone");
    Objects.requireNonNull(acceptRateDefinition, "accept-rate-definition");
    if (speculativeNumSteps != null && speculativeNumSteps < 1) {
      throw new IllegalArgumentException(
          "speculative-num-steps must be >= 1, was " + speculativeNumSteps);
    }
    if (logYear != null && (logYear < 1970 || logYear > 9999)) {
      throw new IllegalArgumentException("log-year must be 1970..9999, was " + logYear);
    }
    Objects.requireNonNull(rawFields, "raw-fields");
  }

  /** With the default raw-fields policy (untyped fields only). */
  public NormaliseConfig(
      int decodeLogInterval,
      ZoneId logZone,
      AcceptRateDefinition acceptRateDefinition,
      Integer speculativeNumSteps,
      Integer logYear) {
    this(
        decodeLogInterval,
        logZone,
        acceptRateDefinition,
        speculativeNumSteps,
        logYear,
        RawFieldsPolicy.UNTYPED);
  }

  /** Without a configured log year. */
  public NormaliseConfig(
      int decodeLogInterval,
      ZoneId logZone,
      AcceptRateDefinition acceptRateDefinition,
      Integer speculativeNumSteps) {
    this(decodeLogInterval, logZone, acceptRateDefinition, speculativeNumSteps, null);
  }

  /** Defaults: interval 40, UTC, the newer accept-rate definition, steps unknown. */
  public static NormaliseConfig defaults() {
    return new NormaliseConfig(
        DEFAULT_DECODE_LOG_INTERVAL,
        ZoneId.of("UTC"),
        AcceptRateDefinition.ACCEPTED_OVER_DRAFTED,
        null);
  }

  public NormaliseConfig withDecodeLogInterval(int interval) {
    return new NormaliseConfig(
        interval, logZone, acceptRateDefinition, speculativeNumSteps, logYear, rawFields);
  }

  public NormaliseConfig withLogYear(Integer year) {
    return new NormaliseConfig(
        decodeLogInterval, logZone, acceptRateDefinition, speculativeNumSteps, year, rawFields);
  }

  public NormaliseConfig withRawFields(RawFieldsPolicy policy) {
    return new NormaliseConfig(
        decodeLogInterval, logZone, acceptRateDefinition, speculativeNumSteps, logYear, policy);
  }
}
