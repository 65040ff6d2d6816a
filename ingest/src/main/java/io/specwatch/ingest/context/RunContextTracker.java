package io.specwatch.ingest.context;

import io.specwatch.schemas.RunContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The run context in force per deployment, merged from three layers, later over earlier field by
 * field: the CLI options, the {@code --run-context} file, then what the logs revealed (each
 * revealing line overrides the fields it states). The CLI and file layers describe every deployment
 * this shipper ships; log lines describe their own deployment (their {@code deployment} field, else
 * the shipper's). Whenever the merged content of a deployment changes (its contextId differs from
 * the last one published), the new {@link RunContext} is handed out once, to be published before
 * the events that follow. Thread-safe (tail shares one tracker across files).
 *
 * <p>observedAt comes from two clocks: a context stated by the CLI or the file is observed when the
 * shipper starts or the file changes (wall clock), one revealed by a log line or first needed by an
 * event at that line's time. A shipper that starts on a log written earlier publishes its CLI/file
 * context (model {@code unknown} when only the hardware is configured) at start time P, then reads
 * the {@code server_args} line of, say, an hour before. streams-app reads contexts as a versioned
 * table and gives each window the context in force at its end: the revealed context, published at
 * its line's time only, would be history before P, and every later window would get the start-up
 * context. So a context whose observedAt lies before the newest one already published for its
 * deployment is handed out twice: at its own time (for the windows of the lines read before P) and
 * again at that newest time, which replaces the superseded context from there on.
 */
public final class RunContextTracker {

  /**
   * What an event is stamped with.
   *
   * @param contextId the run context id in force, or null when no source stated anything
   * @param publish the records to publish before the event (see the class comment for why there can
   *     be two), empty when already published
   */
  public record Stamp(String contextId, List<RunContext> publish) {
    static final Stamp NONE = new Stamp(null, List.of());
  }

  private final String defaultDeployment;
  private ContextFields cli = ContextFields.EMPTY;
  private ContextFields file = ContextFields.EMPTY;
  private final Map<String, ContextFields> logs = new HashMap<>();
  private final Map<String, String> published = new HashMap<>();
  // the newest observedAt published per deployment
  private final Map<String, Instant> newestObservedAt = new HashMap<>();
  private final Set<String> deployments = new LinkedHashSet<>();
  // contextId of the current merged content per deployment ("" = nothing stated); cleared on change
  private final Map<String, String> currentIds = new HashMap<>();
  private long logVersion;
  // the last stamp handed out that published nothing, and its deployment: what every event gets
  // until a layer changes (each change clears it), without the set and map lookups (7 % of the
  // shipper's sending thread, 2026-12-05)
  private String quietDeployment;
  private Stamp quietStamp;

  public RunContextTracker(String defaultDeployment) {
    this.defaultDeployment = Objects.requireNonNull(defaultDeployment, "defaultDeployment");
    deployments.add(defaultDeployment);
  }

  /** A tracker with no sources yet (used by parse and tests). */
  public static RunContextTracker of(String defaultDeployment) {
    return new RunContextTracker(defaultDeployment);
  }

  public String defaultDeployment() {
    return defaultDeployment;
  }

  /** Sets the CLI layer. */
  public synchronized void setCli(ContextFields fields) {
    cli = Objects.requireNonNull(fields, "fields");
    currentIds.clear();
    quietStamp = null;
  }

  /** Sets (replaces) the file layer, e.g. after the file changed. */
  public synchronized void setFile(ContextFields fields) {
    file = Objects.requireNonNull(fields, "fields");
    currentIds.clear();
    quietStamp = null;
  }

  /**
   * A log line revealed context fields for its deployment (its own, else the default).
   *
   * @return the records of the new context to publish (one, or two: see the class comment), empty
   *     when the merged content did not change
   */
  public synchronized List<RunContext> reveal(ContextFields fields, Instant observedAt) {
    String d = fields.deployment() == null ? defaultDeployment : fields.deployment();
    deployments.add(d);
    ContextFields before = logs.get(d);
    logs.merge(d, fields.withDeployment(null), ContextFields::overlay);
    if (!logs.get(d).equals(before)) {
      logVersion++;
    }
    currentIds.remove(d);
    quietStamp = null;
    return publishIfChanged(d, observedAt);
  }

  private Stamp quiet(String deployment, Stamp stamp) {
    quietDeployment = deployment;
    quietStamp = stamp;
    return stamp;
  }

  /** The records that publish {@code rc}: itself, and again at the newest observedAt if later. */
  private List<RunContext> records(RunContext rc) {
    String d = rc.getDeploymentId();
    Instant newest = newestObservedAt.get(d);
    if (newest != null && rc.getObservedAt().isBefore(newest)) {
      return List.of(rc, RunContext.newBuilder(rc).setObservedAt(newest).build());
    }
    newestObservedAt.put(d, rc.getObservedAt());
    return List.of(rc);
  }

  /** The context for an event of deployment d at eventTime, publishing it first if new. */
  public synchronized Stamp stamp(String deployment, Instant eventTime) {
    Stamp quiet = quietStamp;
    if (quiet != null && deployment.equals(quietDeployment)) {
      return quiet;
    }
    deployments.add(deployment);
    String known = currentIds.get(deployment);
    if ("".equals(known)) {
      return quiet(deployment, Stamp.NONE);
    }
    if (known != null && known.equals(published.get(deployment))) {
      return quiet(deployment, new Stamp(known, List.of()));
    }
    ContextFields merged = merged(deployment);
    if (merged.isEmpty()) {
      currentIds.put(deployment, "");
      return Stamp.NONE;
    }
    RunContext rc = RunContexts.build(deployment, merged, eventTime);
    currentIds.put(deployment, rc.getContextId());
    if (rc.getContextId().equals(published.get(deployment))) {
      return new Stamp(rc.getContextId(), List.of());
    }
    published.put(deployment, rc.getContextId());
    return new Stamp(rc.getContextId(), records(rc));
  }

  /**
   * Contexts of known deployments whose content changed since they were last published (at start:
   * the CLI/file context of the shipper's deployment), each marked published.
   */
  public synchronized List<RunContext> pending(Instant now) {
    List<RunContext> out = new ArrayList<>();
    for (String d : deployments) {
      out.addAll(publishIfChanged(d, now));
    }
    return out;
  }

  /** Bumped whenever a log line changed a deployment's log layer (tail persists the layers). */
  public synchronized long logVersion() {
    return logVersion;
  }

  /** The log layer per deployment: what the logs revealed so far. */
  public synchronized Map<String, ContextFields> logLayers() {
    return Map.copyOf(logs);
  }

  /**
   * Restores log layers saved before a restart (tail resumes after the lines that revealed them);
   * lines read again restate their fields in order, so the result converges to the logs' state.
   */
  public synchronized void restoreLogLayers(Map<String, ContextFields> layers) {
    layers.forEach(
        (d, f) -> {
          logs.put(d, f.withDeployment(null));
          deployments.add(d);
        });
    currentIds.clear();
    quietStamp = null;
  }

  /** The merged fields of a deployment (for tests and the parse command). */
  public synchronized ContextFields merged(String deployment) {
    return cli.overlay(file)
        .overlay(logs.getOrDefault(deployment, ContextFields.EMPTY))
        .withDeployment(null);
  }

  private List<RunContext> publishIfChanged(String deployment, Instant observedAt) {
    ContextFields merged = merged(deployment);
    if (merged.isEmpty()) {
      return List.of();
    }
    RunContext rc = RunContexts.build(deployment, merged, observedAt);
    if (rc.getContextId().equals(published.get(deployment))) {
      return List.of();
    }
    published.put(deployment, rc.getContextId());
    quietStamp = null;
    return records(rc);
  }
}
