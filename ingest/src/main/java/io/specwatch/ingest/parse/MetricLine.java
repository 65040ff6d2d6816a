package io.specwatch.ingest.parse;

import java.util.Map;

/** A recognised metric line of one format family, before normalisation. */
public interface MetricLine {

  /** Parser format id, e.g. {@code sglang.decode_batch}. */
  String format();

  /** Prefix (time, rank) of the line. */
  LinePrefix prefix();

  /** Every field as printed, name to text, in line order. */
  Map<String, String> rawFields();
}
