package io.specwatch.streams.alert;

import io.specwatch.schemas.RunContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The last few run contexts of one deployment, oldest first, each flattened to the fields that move
 * performance. Regressions are attributed to the difference between the context in force before a
 * window range and the newest context observed inside it.
 *
 * @param snapshots contexts ordered by observedAt, at most {@link #CAPACITY}
 */
public record RunContextHistory(List<Snapshot> snapshots) {

  /** Contexts kept per deployment. */
  public static final int CAPACITY = 8;

  /** An empty history. */
  public static final RunContextHistory EMPTY = new RunContextHistory(List.of());

  public RunContextHistory {
    snapshots = List.copyOf(snapshots == null ? List.of() : snapshots);
  }

  /**
   * One run context, flattened.
   *
   * @param contextId RunContext.contextId
   * @param observedAt RunContext.observedAt, epoch ms
   * @param fields field name to value: engine, engineVersion, engineCommit, model, draftModel,
   *     draftModelVersion, specMethod, numSteps, topk, numDraftTokens, gpuModel, gpuCount,
   *     interconnect, hardwareClass, tp, dp, ep, cudaGraph, env.NAME, extra.NAME (null fields left
   *     out)
   */
  public record Snapshot(String contextId, long observedAt, SortedMap<String, String> fields) {
    public Snapshot {
      Objects.requireNonNull(contextId, "contextId");
      fields = new TreeMap<>(fields == null ? Map.of() : fields);
    }

    /** Flattens {@code c}. */
    public static Snapshot of(RunContext c) {
      SortedMap<String, String> f = new TreeMap<>();
      put(f, "engine", c.getEngine());
      put(f, "engineVersion", c.getEngineVersion());
      put(f, "engineCommit", c.getEngineCommit());
      put(f, "model", c.getModel());
      put(f, "draftModel", c.getDraftModel());
      put(f, "draftModelVersion", c.getDraftModelVersion());
      put(f, "specMethod", c.getSpecMethod());
      put(f, "numSteps", c.getNumSteps());
      put(f, "topk", c.getTopk());
      put(f, "numDraftTokens", c.getNumDraftTokens());
      put(f, "gpuModel", c.getGpuModel());
      put(f, "gpuCount", c.getGpuCount());
      put(f, "interconnect", c.getInterconnect());
      put(f, "hardwareClass", c.getHardwareClass());
      put(f, "tp", c.getTp());
      put(f, "dp", c.getDp());
      put(f, "ep", c.getEp());
      put(f, "cudaGraph", c.getCudaGraph());
      if (c.getEnv() != null) {
        c.getEnv().forEach((k, v) -> put(f, "env." + k, v));
      }
      if (c.getExtra() != null) {
        c.getExtra().forEach((k, v) -> put(f, "extra." + k, v));
      }
      return new Snapshot(c.getContextId().toString(), c.getObservedAt().toEpochMilli(), f);
    }

    private static void put(Map<String, String> f, Object key, Object value) {
      if (value != null) {
        f.put(key.toString(), value.toString());
      }
    }
  }

  /**
   * A change between two contexts.
   *
   * @param from context in force before
   * @param to newest context observed in the range
   * @param diff readable diff, e.g. {@code env.NCCL_PROTO: LL -> (unset)}; fields joined by "; "
   */
  public record Change(Snapshot from, Snapshot to, String diff) {}

  /** This history with {@code s} added (ignored if its contextId is already the newest). */
  public RunContextHistory with(Snapshot s) {
    List<Snapshot> list = new ArrayList<>(snapshots);
    if (!list.isEmpty() && list.get(list.size() - 1).contextId().equals(s.contextId())) {
      return this;
    }
    list.removeIf(x -> x.contextId().equals(s.contextId()) && x.observedAt() == s.observedAt());
    list.add(s);
    list.sort(Comparator.comparingLong(Snapshot::observedAt));
    while (list.size() > CAPACITY) {
      list.remove(0);
    }
    return new RunContextHistory(list);
  }

  /**
   * The change whose newest context was observed in {@code (fromExclusive, toInclusive]}, diffed
   * against the context in force at {@code fromExclusive}; empty when no context was observed in
   * the range, none was in force before it, or the fields did not change.
   */
  public Optional<Change> changeIn(long fromExclusive, long toInclusive) {
    Snapshot before = null;
    Snapshot after = null;
    for (Snapshot s : snapshots) {
      if (s.observedAt() <= fromExclusive) {
        before = s;
      } else if (s.observedAt() <= toInclusive) {
        after = s;
      }
    }
    if (before == null || after == null) {
      return Optional.empty();
    }
    String diff = diff(before.fields(), after.fields());
    return diff.isEmpty() ? Optional.empty() : Optional.of(new Change(before, after, diff));
  }

  /** {@code key: old -> new} for every differing key, sorted, "(unset)" for a missing value. */
  public static String diff(Map<String, String> from, Map<String, String> to) {
    SortedMap<String, String[]> changes = new TreeMap<>();
    from.forEach((k, v) -> changes.put(k, new String[] {v, to.get(k)}));
    to.forEach((k, v) -> changes.putIfAbsent(k, new String[] {null, v}));
    List<String> parts = new ArrayList<>();
    changes.forEach(
        (k, v) -> {
          if (!Objects.equals(v[0], v[1])) {
            parts.add(k + ": " + orUnset(v[0]) + " -> " + orUnset(v[1]));
          }
        });
    return String.join("; ", parts);
  }

  private static String orUnset(String v) {
    return v == null ? "(unset)" : v;
  }
}
