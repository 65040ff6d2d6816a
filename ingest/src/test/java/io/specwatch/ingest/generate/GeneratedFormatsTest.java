package io.specwatch.ingest.generate;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every format family, speculative and plain, round-trips at least once per run (the jqwik property
 * {@link GeneratedFormatsProperties} draws formats at random).
 */
class GeneratedFormatsTest {

  @ParameterizedTest
  @EnumSource(LogFormat.class)
  void speculativeDeploymentRoundTrips(LogFormat format) {
    GeneratedFormatsProperties.roundTrip(format, SpecMethod.EAGLE3, 20261130L, 3, 2.5);
  }

  @ParameterizedTest
  @EnumSource(
      value = SpecMethod.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = {"NONE"})
  void everyMethodRoundTripsInSglangAndVllm(SpecMethod method) {
    GeneratedFormatsProperties.roundTrip(LogFormat.SGLANG_2026, method, 7L, 2, 1.5);
    GeneratedFormatsProperties.roundTrip(LogFormat.VLLM_V1_SPEC_V4, method, 7L, 4, 3);
  }

  @ParameterizedTest
  @EnumSource(
      value = LogFormat.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = {"SPECWATCH_CYCLE"})
  void plainDeploymentRoundTrips(LogFormat format) {
    GeneratedFormatsProperties.roundTrip(format, SpecMethod.NONE, 20261130L, 3, 2.5);
  }
}
