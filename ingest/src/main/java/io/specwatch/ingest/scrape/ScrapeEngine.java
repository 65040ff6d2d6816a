package io.specwatch.ingest.scrape;

import java.util.List;
import java.util.Locale;

/** Which engine's metric names to interpret: {@code auto} looks at the names in each scrape. */
public enum ScrapeEngine {
  VLLM,
  SGLANG,
  AUTO;

  /** Parses {@code vllm|sglang|auto}, naming the setting on failure. */
  public static ScrapeEngine parse(String text) {
    try {
      return valueOf(text.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException(
          "setting 'engine' must be vllm, sglang or auto, was '" + text + "'", e);
    }
  }

  boolean includesVllm(List<PromSample> samples) {
    return this == VLLM
        || (this == AUTO && samples.stream().anyMatch(s -> s.name().startsWith("vllm:")));
  }

  boolean includesSglang(List<PromSample> samples) {
    return this == SGLANG
        || (this == AUTO && samples.stream().anyMatch(s -> s.name().startsWith("sglang:")));
  }
}
