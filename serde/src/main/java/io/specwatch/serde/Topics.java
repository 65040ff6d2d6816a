package io.specwatch.serde;

/** Default topic names shared by every module. Names are configurable; these are the defaults. */
public final class Topics {
  /** Key: deploymentId (String), value: {@code DecodeEvent}. */
  public static final String DECODE_EVENTS = "specwatch.decode-events.v1";

  /** Compacted. Key: deploymentId (String), value: {@code RunContext}. */
  public static final String RUN_CONTEXT = "specwatch.run-context.v1";

  /** Key: deploymentId (String), value: {@code RequestAcceptance}. */
  public static final String REQUEST_ACCEPTANCE = "specwatch.request-acceptance.v1";

  /** Key: deploymentId (String), value: {@code WindowResult}. */
  public static final String WINDOW_RESULTS = "specwatch.window-results.v1";

  /** Key: deploymentId (String), value: {@code Alert}. */
  public static final String ALERTS = "specwatch.alerts.v1";

  /** Key: source (String), value: {@code DeadLetter}. */
  public static final String DEAD_LETTER = "specwatch.dead-letter.v1";

  private Topics() {}
}
