package io.specwatch.sink;

/** What a sink run did: records polled, rows inserted, inserts, dead letters, offset commits. */
public record SinkStats(
    long recordsPolled, long rowsInserted, long batches, long deadLetters, long commits) {}
