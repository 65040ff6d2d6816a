package io.specwatch.ingest.generate;

/** Per-request output of a synthetic deployment ({@code requests.jsonl}). */
public enum RequestFormat {
  NONE,
  /** The instrumented {@code request.v1} JSON lines. */
  REQUEST_V1,
  /** SGLang's per-request {@code meta_info}, as a gateway logs the response. */
  SGLANG_META_INFO
}
