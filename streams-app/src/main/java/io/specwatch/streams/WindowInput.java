package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;

/**
 * What the window aggregation receives: an event, and whether it arrived after its own window had
 * closed (then it only counts in {@code lateEvents} of the window open at arrival). In-memory only:
 * nothing repartitions it, so it needs no serde.
 *
 * @param event the decode event
 * @param late whether its own window was already closed (emitted) when it arrived
 */
public record WindowInput(DecodeEvent event, boolean late) {}
