package io.specwatch.ingest.normalise;

import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.RawFields;

/**
 * Which printed fields a DecodeEvent keeps in {@code rawFields} ({@code --raw-fields}).
 *
 * <p>{@link #UNTYPED}, the default since 2026-12-05: the fields that no typed field of the event
 * holds ({@link MetricLine#typedNames}): SGLang's {@code #token}, vLLM's prompt throughput and
 * prefix-cache rate, TensorRT-LLM's memory figures, any field a newer engine adds, and every field
 * whose typed value is derived rather than read (v0's cumulative counts). A field's text as printed
 * stays in the log at the event's {@code sourceOffset}. The events are about a third smaller on the
 * bench's mix (438 against 303 bytes), which is what the broker and the shipper's sockets pay per
 * byte on a host that also runs them.
 *
 * <p>{@link #ALL}: every printed field, as before 2026-12-05.
 */
public enum RawFieldsPolicy {
  UNTYPED,
  ALL;

  /** The raw fields of an event read from {@code line}. */
  public RawFields of(MetricLine line) {
    RawFields raw = RawFields.copyOf(line.rawFields());
    return this == ALL ? raw : raw.without(line.typedNames());
  }
}
