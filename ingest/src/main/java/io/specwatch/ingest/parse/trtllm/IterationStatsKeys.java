package io.specwatch.ingest.parse.trtllm;

/**
 * The keys of an iteration-stats line that {@link IterationStatsScan} knows: the names TensorRT-LLM
 * prints at the root and under {@code specDecodingStats}, and the typed slot each one read by the
 * parser goes to.
 */
final class IterationStatsKeys {

  /** Typed slots: root fields, then specDecodingStats fields. */
  static final int TIMESTAMP = 0;

  static final int ITER = 1;
  static final int LATENCY = 2;
  static final int ACTIVE = 3;
  static final int QUEUED = 4;
  static final int SPEC_STATS = 5;
  static final int DRAFTED = 6;
  static final int ACCEPTED = 7;
  static final int WITH_DRAFTS = 8;
  static final int LENGTH = 9;
  static final int DRAFT_MS = 10;
  static final int OVERHEAD = 11;
  static final int SLOTS = 12;

  private static final String SPEC_NAME = "specDecodingStats";

  static final String ITER_LATENCY = "iterLatencyMS";
  static final String NUM_ACTIVE = "numActiveRequests";
  static final String NUM_QUEUED = "numQueuedRequests";

  /**
   * Root keys (slot, or -1): the names TensorRT-LLM prints, in its order, so that a key is usually
   * found at the first comparison and its name is not copied.
   */
  static final String[] ROOT_KEYS = {
    "cpuMemUsage",
    "gpuMemUsage",
    "timestamp",
    "iter",
    ITER_LATENCY,
    NUM_ACTIVE,
    NUM_QUEUED,
    "maxNumActiveRequests",
    SPEC_NAME
  };

  static final int[] ROOT_SLOTS = {
    -1, -1, TIMESTAMP, ITER, LATENCY, ACTIVE, QUEUED, -1, SPEC_STATS
  };
  static final char[][] ROOT_CHARS = chars(ROOT_KEYS);
  static final String[] SPEC_KEYS = {
    "numDraftTokens",
    "numAcceptedTokens",
    "numRequestsWithDraftTokens",
    "acceptanceLength",
    "iterLatencyMS",
    "draftOverhead"
  };
  static final int[] SPEC_SLOTS = {DRAFTED, ACCEPTED, WITH_DRAFTS, LENGTH, DRAFT_MS, OVERHEAD};
  static final char[][] SPEC_CHARS = chars(SPEC_KEYS);

  /** The flattened names of {@link #SPEC_KEYS} under {@code specDecodingStats}. */
  static final String[] SPEC_NAMES = new String[SPEC_KEYS.length];

  static {
    for (int i = 0; i < SPEC_KEYS.length; i++) {
      SPEC_NAMES[i] = SPEC_NAME + "." + SPEC_KEYS[i];
    }
  }

  private IterationStatsKeys() {}

  private static char[][] chars(String[] keys) {
    char[][] chars = new char[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      chars[i] = keys[i].toCharArray();
    }
    return chars;
  }

  /** The index of {@code key} in {@code keys}, or -1. */
  static int indexOf(String[] keys, String key) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }
}
