package io.specwatch.ingest.parse.context;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.vllm.VllmStamp;
import java.time.Instant;
import java.util.Map;

/**
 * A line that reveals run-context fields: a {@code specwatch.run_context} JSON line, SGLang's
 * {@code server_args=ServerArgs(...)} or vLLM's startup configuration. Becomes a RunContext when it
 * changes the merged context, never a DecodeEvent.
 *
 * @param format format id
 * @param prefix bracketed prefix (SGLang), or {@link LinePrefix#NONE}
 * @param time absolute time the line carries (JSON {@code ts}), or null
 * @param vllmStamp vLLM's year-less prefix time, or null
 * @param fields what the line states
 * @param rawFields the line's fields as printed
 */
public record ContextLine(
    String format,
    LinePrefix prefix,
    Instant time,
    VllmStamp vllmStamp,
    ContextFields fields,
    Map<String, String> rawFields)
    implements MetricLine {

  public ContextLine {
    rawFields = Map.copyOf(rawFields);
  }
}
