package io.specwatch.ingest.testing;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that shows the instant a test sets, and only that. */
public final class ManualClock extends Clock {

  /** What {@link #instant} returns; set it as the test goes. */
  public Instant now;

  public ManualClock(Instant start) {
    this.now = start;
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
