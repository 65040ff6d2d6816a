package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import java.util.ArrayList;
import java.util.Comparator;
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

  private static final Comparator<BreakdownKey> ORDER =
      Comparator.comparing(BreakdownKey::specEnabled)
          .reversed()
          .thenComparing(BreakdownKey::promptCategory)
          .thenComparing(BreakdownKey::batchBucket);

  public BreakdownKey {
    Objects.requireNonNull(promptCategory, "promptCategory");
    Objects.requireNonNull(batchBucket, "batchBucket");
  }

  /** The total row of one side. */
  public static BreakdownKey total(boolean specEnabled) {
    return new BreakdownKey(specEnabled, BatchBuckets.ALL, BatchBuckets.ALL);
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

  @Override
  public int compareTo(BreakdownKey o) {
    return ORDER.compare(this, o);
  }
}
