package io.specwatch.ingest.parse;

import java.util.Map;
import java.util.Set;

/** A recognised metric line of one format family, before normalisation. */
public interface MetricLine {

  /** Parser format id, e.g. {@code sglang.decode_batch}. */
  String format();

  /** Prefix (time, rank) of the line. */
  LinePrefix prefix();

  /** Every field as printed, name to text, in line order. */
  Map<String, String> rawFields();

  /**
   * The printed fields whose value this line's DecodeEvent carries in a typed field, read from
   * exactly that text (possibly in another unit, e.g. a percentage as a fraction): what the default
   * {@code --raw-fields untyped} leaves out of the event's {@code rawFields}. Empty unless a format
   * says otherwise: its event keeps every field. A printed field whose typed counterpart is derived
   * (a delta of cumulative totals, a recomputed value) or missing (e.g. {@code nan}) is never in
   * it.
   */
  default Set<String> typedNames() {
    return Set.of();
  }
}
