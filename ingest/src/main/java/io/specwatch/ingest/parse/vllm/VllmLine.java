package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.MetricLine;

/** A recognised vLLM metric line: its printed time has no year. */
public interface VllmLine extends MetricLine {

  /** Printed time without year, or null when the line had no vLLM prefix. */
  VllmStamp stamp();

  /** Process tag before the level, e.g. {@code APIServer pid=1}, or null. */
  String processTag();
}
