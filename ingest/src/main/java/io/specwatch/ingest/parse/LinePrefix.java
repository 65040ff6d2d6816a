package io.specwatch.ingest.parse;

import java.time.LocalDateTime;

/**
 * What a log line's prefix told us: the printed local time and the rank tag.
 *
 * @param timestamp printed local date-time, or null when the line had no recognised prefix
 * @param rank rank tag as printed ("TP0", "DP3 TP3", "TP0 EP0"), or null
 * @param tpRank tensor-parallel rank from the tag, or null
 * @param dpRank data-parallel rank from the tag, or null
 * @param epRank expert-parallel rank from the tag, or null
 */
public record LinePrefix(
    LocalDateTime timestamp, String rank, Integer tpRank, Integer dpRank, Integer epRank) {

  /** A line without a recognised prefix. */
  public static final LinePrefix NONE = new LinePrefix(null, null, null, null, null);

  /** Key that separates ranks of one source, "" when there is no rank tag. */
  public String rankKey() {
    return rank == null ? "" : rank;
  }
}
