package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One row of a deployment's window: speculative or not, prompt category ({@code *} = all) and
 * batch-size bucket ({@code *} = all).
 *
 * <p>An event counts in the total row ({@code *}, {@code *}) of its specEnabled side, in its
 * category row ({@code category}, {@code *}) when it carries a category, and in its bucket row
 * ({@code *}, {@code bucket}) when it carries running requests. Category x bucket cross rows are
 * not emitted (they would multiply the rows per window; the single-dimension rows answer the
 * questions in DOMAIN.md: acceptance per category, t_AR and speedup per batch size).
 *
 * @param specEnabled whether the row aggregates speculative events
 * @param promptCategory category or {@code *}
 * @param batchBucket {@link BatchBuckets} name or {@code *}
 */
public record BreakdownKey(boolean specEnabled, String promptCategory, String batchBucket)
    implements Comparable<BreakdownKey> {

  public BreakdownKey {
    Objects.requireNonNull(promptCategory, "promptCategory");
    Objects.requireNonNull(batchBucket, "batchBucket");
  }

  private static final BreakdownKey TOTAL_SPEC =
      new BreakdownKey(true, BatchBuckets.ALL, BatchBuckets.ALL);
  private static final BreakdownKey TOTAL_PLAIN =
      new BreakdownKey(false, BatchBuckets.ALL, BatchBuckets.ALL);

  /** The total row of one side. */
  public static BreakdownKey total(boolean specEnabled) {
    return specEnabled ? TOTAL_SPEC : TOTAL_PLAIN;
  }

  /** The rows {@code event} counts in: total, then category, then bucket when known. */
  public static List<BreakdownKey> of(DecodeEvent event) {
    boolean spec = event.getSpecEnabled();
    List<BreakdownKey> keys = new ArrayList<>(3);
    keys.add(total(spec));
    String category = event.getPromptCategory() == null ? "" : event.getPromptCategory().strip();
    if (!category.isEmpty() && !category.equals(BatchBuckets.ALL)) {
      keys.add(new BreakdownKey(spec, category, BatchBuckets.ALL));
    }
    if (event.getRunningRequests() != null) {
      keys.add(
          new BreakdownKey(spec, BatchBuckets.ALL, BatchBuckets.of(event.getRunningRequests())));
    }
    return keys;
  }

  /** Whether this is the total row of its side. */
  public boolean isTotal() {
    return promptCategory.equals(BatchBuckets.ALL) && batchBucket.equals(BatchBuckets.ALL);
  }

  /**
   * Speculative rows first, then by prompt category, then by batch bucket (hand-written: a {@code
   * Comparator.comparing} chain boxed the boolean on every comparison of the window's row map).
   */
  @Override
  public int compareTo(BreakdownKey o) {
    if (specEnabled != o.specEnabled) {
      return specEnabled ? -1 : 1;
    }
    int c = promptCategory.compareTo(o.promptCategory);
    return c != 0 ? c : batchBucket.compareTo(o.batchBucket);
  }
}
