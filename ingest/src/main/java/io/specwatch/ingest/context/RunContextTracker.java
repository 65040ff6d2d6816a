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
 */
public final class RunContextTracker {

  /**
   * What an event is stamped with.
   *
   * @param contextId the run context id in force, or null when no source stated anything
   * @param publish the context to publish before the event, or null when already published
   */
  public record Stamp(String contextId, RunContext publish) {
    static final Stamp NONE = new Stamp(null, null);
  }

  private final String defaultDeployment;
  private ContextFields cli = ContextFields.EMPTY;
  private ContextFields file = ContextFields.EMPTY;
  private final Map<String, ContextFields> logs = new HashMap<>();
  private final Map<String, String> published = new HashMap<>();
  private final Set<String> deployments = new LinkedHashSet<>();
  // contextId of the current merged content per deployment ("" = nothing stated); cleared on change
  private final Map<String, String> currentIds = new HashMap<>();
  private long logVersion;

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
  }

  /** Sets (replaces) the file layer, e.g. after the file changed. */
  public synchronized void setFile(ContextFields fields) {
    file = Objects.requireNonNull(fields, "fields");
    currentIds.clear();
  }

  /**
   * A log line revealed context fields for its deployment (its own, else the default).
   *
   * @return the new context to publish, or null when the merged content did not change
   */
  public synchronized RunContext reveal(ContextFields fields, Instant observedAt) {
    String d = fields.deployment() == null ? defaultDeployment : fields.deployment();
    deployments.add(d);
    ContextFields before = logs.get(d);
    logs.merge(d, fields.withDeployment(null), ContextFields::overlay);
    if (!logs.get(d).equals(before)) {
      logVersion++;
    }
    currentIds.remove(d);
    return publishIfChanged(d, observedAt);
  }

  /** The context for an event of deployment d at eventTime, publishing it first if new. */
  public synchronized Stamp stamp(String deployment, Instant eventTime) {
    deployments.add(deployment);
    String known = currentIds.get(deployment);
    if ("".equals(known)) {
      return Stamp.NONE;
    }
    if (known != null && known.equals(published.get(deployment))) {
      return new Stamp(known, null);
    }
    ContextFields merged = merged(deployment);
    if (merged.isEmpty()) {
      currentIds.put(deployment, "");
      return Stamp.NONE;
    }
    RunContext rc = RunContexts.build(deployment, merged, eventTime);
    currentIds.put(deployment, rc.getContextId());
    if (rc.getContextId().equals(published.get(deployment))) {
      return new Stamp(rc.getContextId(), null);
    }
    published.put(deployment, rc.getContextId());
    return new Stamp(rc.getContextId(), rc);
  }

  /**
   * Contexts of known deployments whose content changed since they were last published (at start:
   * the CLI/file context of the shipper's deployment), each marked published.
   */
  public synchronized List<RunContext> pending(Instant now) {
    List<RunContext> out = new ArrayList<>();
    for (String d : deployments) {
      RunContext rc = publishIfChanged(d, now);
      if (rc != null) {
        out.add(rc);
      }
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
  }

  /** The merged fields of a deployment (for tests and the parse command). */
  public synchronized ContextFields merged(String deployment) {
    return cli.overlay(file)
        .overlay(logs.getOrDefault(deployment, ContextFields.EMPTY))
        .withDeployment(null);
  }

  private RunContext publishIfChanged(String deployment, Instant observedAt) {
    ContextFields merged = merged(deployment);
    if (merged.isEmpty()) {
      return null;
    }
    RunContext rc = RunContexts.build(deployment, merged, observedAt);
    if (rc.getContextId().equals(published.get(deployment))) {
      return null;
    }
    published.put(deployment, rc.getContextId());
    return rc;
  }
}
