package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.ParseResult;
import java.util.List;

// Round 9 reference: VllmReads as it was before the round-9 hand-written scans (commit a0190fc),
// verbatim but for the class names; the VllmFastParse*Properties check the new code gives the same
// results. Not used by production code.
/** Reads shared by the v0 and V1 parsers. */
final class ReferenceVllmReads {

  static final String DRAFT_ACCEPTANCE_RATE = "Draft acceptance rate";
  static final String AVG_DRAFT_ACCEPTANCE_RATE = "Avg Draft acceptance rate";
  static final String MEAN_ACCEPTANCE_LENGTH = "Mean acceptance length";
  static final String ACCEPTED = "Accepted";
  static final String DRAFTED = "Drafted";
  static final String ACCEPTED_THROUGHPUT = "Accepted throughput";
  static final String DRAFTED_THROUGHPUT = "Drafted throughput";
  static final String PER_POSITION = "Per-position acceptance rate";
  static final String NUM_ACCEPTED = "Number of accepted tokens";
  static final String NUM_DRAFT = "Number of draft tokens";
  static final String NUM_EMITTED = "Number of emitted tokens";
  static final String NUM_SPEC = "Number of speculative tokens";
  static final String SYSTEM_EFFICIENCY = "System efficiency";
  static final String PROMPT_THROUGHPUT = "Avg prompt throughput";
  static final String GEN_THROUGHPUT = "Avg generation throughput";
  static final String RUNNING = "Running";
  static final String WAITING = "Waiting";
  static final String PENDING = "Pending";
  static final String SWAPPED = "Swapped";
  static final String GPU_KV = "GPU KV cache usage";

  static final int MAX_LINE = 64 * 1024;

  private ReferenceVllmReads() {}

  /** Reads a throughput field list (after the marker and any {@code Engine NNN:}). */
  static ParseResult throughput(
      String format,
      ReferenceVllmPrefix.Split split,
      Integer engineIndex,
      String list,
      String queueField) {
    ReferenceVllmFields f = ReferenceVllmFields.colonList(list);
    Double prompt = f.number(PROMPT_THROUGHPUT, true);
    Double gen = f.number(GEN_THROUGHPUT, true);
    Integer running = f.smallCount(RUNNING, true);
    Integer queued = f.smallCount(queueField, false);
    Integer swapped = f.smallCount(SWAPPED, false);
    Double kv = f.number(GPU_KV, false);
    if (f.error() != null) {
      return ParseResult.failed(format, f.error());
    }
    if (prompt == null || gen == null) {
      return ParseResult.failed(format, "throughput is nan");
    }
    return new ParseResult.Parsed(
        new VllmThroughput(
            format,
            split.stamp(),
            split.processTag(),
            engineIndex,
            prompt,
            gen,
            running,
            queued,
            swapped,
            kv,
            f.raw()));
  }

  /** Builds the spec-decoding record once the variant's fields are known. */
  static ParseResult spec(
      String format,
      ReferenceVllmPrefix.Split split,
      ReferenceVllmFields f,
      String rateField,
      boolean percent,
      String acceptedField,
      String draftedField,
      boolean cumulative) {
    Double rate = f.number(rateField, false);
    Double tau = f.number(MEAN_ACCEPTANCE_LENGTH, false);
    Long accepted = f.count(acceptedField, true);
    Long drafted = f.count(draftedField, true);
    Long emitted = f.count(NUM_EMITTED, false);
    Integer k = f.smallCount(NUM_SPEC, false);
    Double efficiency = f.number(SYSTEM_EFFICIENCY, false);
    Double acceptedTps = f.number(ACCEPTED_THROUGHPUT, false);
    Double draftedTps = f.number(DRAFTED_THROUGHPUT, false);
    List<Double> perPosition = f.numberList(PER_POSITION);
    if (f.error() != null || perPosition == null) {
      return ParseResult.failed(format, f.error());
    }
    return new ParseResult.Parsed(
        new VllmSpecDecoding(
            format,
            split.stamp(),
            split.processTag(),
            rate,
            percent,
            tau,
            accepted,
            drafted,
            emitted,
            k,
            efficiency,
            acceptedTps,
            draftedTps,
            perPosition,
            cumulative,
            f.raw()));
  }
}
