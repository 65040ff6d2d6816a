package io.specwatch.sink;

import java.time.Duration;

/**
 * What a {@code sink replay} scanned: records read between the start and stop offsets, those in the
 * range (loaded, or dead-lettered when they cannot be), and those whose event time lies after their
 * Kafka timestamp by more than {@code --max-clock-skew} (the largest such lead; ZERO when none).
 */
public record ReplayStats(long scanned, long selected, long skewExceeded, Duration largestLead) {}
