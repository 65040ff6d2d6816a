package io.specwatch.ingest.parse.vllm;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;

/**
 * A vLLM log time: vLLM prints {@code MM-dd HH:mm:ss} without a year.
 *
 * @param day printed month and day
 * @param time printed local time of day
 */
public record VllmStamp(MonthDay day, LocalTime time) {

  /**
   * The instant this stamp denotes. The year is {@code configuredYear} when set; otherwise the year
   * of {@code ingestTime} in {@code zone}, minus one when that would put the line more than a day
   * after it was read (a December line read in January).
   */
  public Instant resolve(Integer configuredYear, Instant ingestTime, ZoneId zone) {
    if (configuredYear != null) {
      return day.atYear(configuredYear).atTime(time).atZone(zone).toInstant();
    }
    int year = ingestTime.atZone(zone).getYear();
    Instant guess = day.atYear(year).atTime(time).atZone(zone).toInstant();
    if (guess.isAfter(ingestTime.plus(Duration.ofDays(1)))) {
      return day.atYear(year - 1).atTime(time).atZone(zone).toInstant();
    }
    return guess;
  }
}
