package io.specwatch.streams;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.AlertConfig;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;

/**
 * Everything {@link TopologyFactory#build} needs: topic names, window and baseline settings and
 * value serdes. Keys are plain UTF-8 strings (deploymentId).
 *
 * @param decodeEventsTopic input topic of DecodeEvent values
 * @param runContextTopic compacted topic of RunContext values, co-partitioned with the input
 * @param windowResultsTopic output topic of WindowResult values
 * @param windowSize tumbling window size
 * @param grace how long after a window's end late events are still accepted
 * @param staticBaselines configured t_AR per comparison key
 * @param baselineMaxAge how much older than a speculative window a learned baseline may be
 * @param decodeEventSerde value serde of the input topic
 * @param runContextSerde value serde of the run-context topic and store
 * @param windowResultSerde value serde of the output topic and the baseline repartition topic
 * @param alertsTopic output topic of Alert values
 * @param alertSerde value serde of the alerts topic
 * @param alerts alert rules
 * @param dedupRetention how long (in event time) an event id is remembered to drop a re-sent event;
 *     zero switches dedup off; null means {@link #defaultDedupRetention}
 * @param maxEventAhead how far an event's time may lie ahead of its ingest time; a later event is
 *     dead-lettered and does not move stream time (zero switches the check off; null means {@link
 *     #DEFAULT_MAX_EVENT_AHEAD})
 */
public record TopologyInputs(
    String decodeEventsTopic,
    String runContextTopic,
    String windowResultsTopic,
    Duration windowSize,
    Duration grace,
    StaticBaselines staticBaselines,
    Duration baselineMaxAge,
    Serde<DecodeEvent> decodeEventSerde,
    Serde<RunContext> runContextSerde,
    Serde<WindowResult> windowResultSerde,
    String alertsTopic,
    Serde<Alert> alertSerde,
    AlertConfig alerts,
    Duration dedupRetention,
    Duration maxEventAhead) {

  /**
   * Default of {@link #maxEventAhead}: a log line is read within seconds of being written, so an
   * event time a quarter of an hour ahead of its ingest time is a wrong {@code --log-zone} or
   * clock, not a slow shipper.
   */
  public static final Duration DEFAULT_MAX_EVENT_AHEAD = Duration.ofMinutes(15);

  /** With the default dedup retention. */
  public TopologyInputs(
      String decodeEventsTopic,
      String runContextTopic,
      String windowResultsTopic,
      Duration windowSize,
      Duration grace,
      StaticBaselines staticBaselines,
      Duration baselineMaxAge,
      Serde<DecodeEvent> decodeEventSerde,
      Serde<RunContext> runContextSerde,
      Serde<WindowResult> windowResultSerde,
      String alertsTopic,
      Serde<Alert> alertSerde,
      AlertConfig alerts) {
    this(
        decodeEventsTopic,
        runContextTopic,
        windowResultsTopic,
        windowSize,
        grace,
        staticBaselines,
        baselineMaxAge,
        decodeEventSerde,
        runContextSerde,
        windowResultSerde,
        alertsTopic,
        alertSerde,
        alerts,
        null,
        null);
  }

  /**
   * {@code maxEventAhead} resolved (null: {@link #DEFAULT_MAX_EVENT_AHEAD}) and checked: zero (off)
   * or positive. A failure names {@code setting}.
   */
  static Duration checkMaxEventAhead(Duration maxEventAhead, String setting) {
    if (maxEventAhead == null) {
      return DEFAULT_MAX_EVENT_AHEAD;
    }
    if (maxEventAhead.isNegative()) {
      throw new IllegalArgumentException(
          setting + " must be 0 (off) or positive, got " + maxEventAhead);
    }
    return maxEventAhead;
  }

  /** The dedup retention when none is given: 10 minutes, at least window + grace. */
  public static Duration defaultDedupRetention(Duration windowSize, Duration grace) {
    Duration minimum = windowSize.plus(grace);
    Duration tenMinutes = Duration.ofMinutes(10);
    return minimum.compareTo(tenMinutes) > 0 ? minimum : tenMinutes;
  }

  /**
   * {@code dedupRetention} resolved (null: the default) and checked: zero (off) or at least window
   * + grace, so that an event re-sent after its id was forgotten is late for its window and counts
   * only as late. A failure names {@code setting}.
   */
  static Duration checkDedupRetention(
      Duration dedupRetention, Duration windowSize, Duration grace, String setting) {
    if (dedupRetention == null) {
      return defaultDedupRetention(windowSize, grace);
    }
    if (dedupRetention.isNegative()) {
      throw new IllegalArgumentException(
          setting + " must be 0 (off) or positive, got " + dedupRetention);
    }
    if (!dedupRetention.isZero() && dedupRetention.compareTo(windowSize.plus(grace)) < 0) {
      throw new IllegalArgumentException(
          setting
              + " must be 0 (off) or at least window + grace ("
              + windowSize.plus(grace)
              + "), got "
              + dedupRetention);
    }
    return dedupRetention;
  }

  /** Whether re-sent events (same event id) are dropped. */
  public boolean dedup() {
    return !dedupRetention.isZero();
  }

  public TopologyInputs {
    requireName(decodeEventsTopic, "decodeEventsTopic");
    requireName(runContextTopic, "runContextTopic");
    requireName(windowResultsTopic, "windowResultsTopic");
    Objects.requireNonNull(windowSize, "windowSize");
    Objects.requireNonNull(grace, "grace");
    if (windowSize.isZero() || windowSize.isNegative()) {
      throw new IllegalArgumentException("windowSize must be positive, got " + windowSize);
    }
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must not be negative, got " + grace);
    }
    Objects.requireNonNull(staticBaselines, "staticBaselines");
    Objects.requireNonNull(baselineMaxAge, "baselineMaxAge");
    if (baselineMaxAge.isNegative()) {
      throw new IllegalArgumentException(
          "baselineMaxAge must not be negative, got " + baselineMaxAge);
    }
    Objects.requireNonNull(decodeEventSerde, "decodeEventSerde");
    Objects.requireNonNull(runContextSerde, "runContextSerde");
    Objects.requireNonNull(windowResultSerde, "windowResultSerde");
    requireName(alertsTopic, "alertsTopic");
    Objects.requireNonNull(alertSerde, "alertSerde");
    Objects.requireNonNull(alerts, "alerts");
    dedupRetention = checkDedupRetention(dedupRetention, windowSize, grace, "dedupRetention");
    maxEventAhead = checkMaxEventAhead(maxEventAhead, "maxEventAhead");
  }

  private static void requireName(String name, String setting) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(setting + " must not be blank");
    }
  }
}
