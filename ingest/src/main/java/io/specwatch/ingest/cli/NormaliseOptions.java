package io.specwatch.ingest.cli;

import io.specwatch.ingest.normalise.AcceptRateDefinition;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.RawFieldsPolicy;
import java.time.ZoneId;
import picocli.CommandLine.Option;

/** Normalisation options shared by {@code ship} and {@code parse}. */
final class NormaliseOptions {

  @Option(
      names = "--decode-log-interval",
      defaultValue = "${env:SPECWATCH_DECODE_LOG_INTERVAL:-40}",
      description =
          "SGLang --decode-log-interval: decode passes per line (env SPECWATCH_DECODE_LOG_INTERVAL, default ${DEFAULT-VALUE}).")
  int decodeLogInterval;

  @Option(
      names = "--log-zone",
      defaultValue = "${env:SPECWATCH_LOG_ZONE:-UTC}",
      description =
          "Zone of the printed local times (env SPECWATCH_LOG_ZONE, default ${DEFAULT-VALUE}).")
  String logZone;

  @Option(
      names = "--accept-rate-definition",
      defaultValue = "${env:SPECWATCH_ACCEPT_RATE_DEFINITION:-ACCEPTED_OVER_DRAFTED}",
      description =
          "Meaning of a printed accept rate: ${COMPLETION-CANDIDATES} (env"
              + " SPECWATCH_ACCEPT_RATE_DEFINITION, default ${DEFAULT-VALUE}).")
  AcceptRateDefinition acceptRateDefinition;

  @Option(
      names = "--speculative-num-steps",
      defaultValue = "${env:SPECWATCH_SPECULATIVE_NUM_STEPS}",
      description =
          "Draft steps per cycle; converts the older accept-rate definition (env"
              + " SPECWATCH_SPECULATIVE_NUM_STEPS).")
  Integer speculativeNumSteps;

  @Option(
      names = "--log-year",
      defaultValue = "${env:SPECWATCH_LOG_YEAR}",
      description =
          "Year of vLLM's year-less timestamps (env SPECWATCH_LOG_YEAR; default: the ingest time's year).")
  Integer logYear;

  @Option(
      names = "--raw-fields",
      defaultValue = "${env:SPECWATCH_RAW_FIELDS:-UNTYPED}",
      description =
          "Printed fields an event keeps in rawFields: UNTYPED (those no typed field holds) or ALL"
              + " (env SPECWATCH_RAW_FIELDS, default ${DEFAULT-VALUE}).")
  RawFieldsPolicy rawFields;

  NormaliseConfig toConfig() {
    ZoneId zone;
    try {
      zone = ZoneId.of(logZone);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("log-zone: unknown zone '" + logZone + "'", e);
    }
    return new NormaliseConfig(
        decodeLogInterval, zone, acceptRateDefinition, speculativeNumSteps, logYear, rawFields);
  }
}
