package io.specwatch.ingest.generate;

import java.time.Instant;

/** Where generated lines go: a file of the deployment's directory, stamped with event time. */
public interface LineSink {

  /** The native engine log (and, for instrumented deployments, run-context lines). */
  String ENGINE_LOG = "engine.log";

  /** Per-phase profile lines ({@code Target verify: 28.96 ms/cyc (97.0%)}). */
  String PROFILE_LOG = "profile.log";

  /** Per-request JSON lines. */
  String REQUESTS = "requests.jsonl";

  /**
   * One line.
   *
   * @param file one of the file names above
   * @param time event time of the line (lines of one deployment arrive in time order)
   * @param text the line without terminator
   */
  void line(String file, Instant time, String text);
}
