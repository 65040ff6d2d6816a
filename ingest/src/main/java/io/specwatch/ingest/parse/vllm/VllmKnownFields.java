package io.specwatch.ingest.parse.vllm;

/**
 * The vLLM field names the parsers read or check, each with a slot: {@link VllmFields} keeps the
 * texts of these fields in an array by slot (its reads need no hash lookup) and puts a list's name
 * equal to one in its map as the constant here instead of a copy of the line's text.
 */
final class VllmKnownFields {

  static final String PREFIX_CACHE = "Prefix cache hit rate";

  private VllmKnownFields() {}

  /**
   * The field names the parsers read or check (each a slot of {@link VllmFields}' array of known
   * texts); a list's name equal to one is put in the map as this constant instead of a copy of the
   * line's text.
   */
  static final String[] KNOWN = {
    VllmReads.DRAFT_ACCEPTANCE_RATE,
    VllmReads.AVG_DRAFT_ACCEPTANCE_RATE,
    VllmReads.MEAN_ACCEPTANCE_LENGTH,
    VllmReads.ACCEPTED,
    VllmReads.DRAFTED,
    VllmReads.ACCEPTED_THROUGHPUT,
    VllmReads.DRAFTED_THROUGHPUT,
    VllmReads.PER_POSITION,
    VllmReads.NUM_ACCEPTED,
    VllmReads.NUM_DRAFT,
    VllmReads.NUM_EMITTED,
    VllmReads.NUM_SPEC,
    VllmReads.SYSTEM_EFFICIENCY,
    VllmReads.PROMPT_THROUGHPUT,
    VllmReads.GEN_THROUGHPUT,
    VllmReads.RUNNING,
    VllmReads.WAITING,
    VllmReads.PENDING,
    VllmReads.SWAPPED,
    VllmReads.GPU_KV,
    PREFIX_CACHE,
    "CPU KV cache usage"
  };

  /** Slots of {@link #KNOWN} by name length. */
  private static final int[][] KNOWN_BY_LENGTH = new int[64][];

  static {
    for (int slot = 0; slot < KNOWN.length; slot++) {
      int len = KNOWN[slot].length();
      int[] old = KNOWN_BY_LENGTH[len];
      int[] grown = old == null ? new int[1] : java.util.Arrays.copyOf(old, old.length + 1);
      grown[grown.length - 1] = slot;
      KNOWN_BY_LENGTH[len] = grown;
    }
  }

  /** The slot of the name {@code s[from, to)} in {@link #KNOWN}, or -1. */
  static int knownSlot(String s, int from, int to) {
    int len = to - from;
    if (len >= KNOWN_BY_LENGTH.length || KNOWN_BY_LENGTH[len] == null) {
      return -1;
    }
    for (int slot : KNOWN_BY_LENGTH[len]) {
      if (s.startsWith(KNOWN[slot], from)) {
        return slot;
      }
    }
    return -1;
  }

  /** The slot of a name (a {@link VllmReads} constant) in {@link #KNOWN}, or -1. */
  static int slot(String name) {
    return switch (name) {
      case VllmReads.DRAFT_ACCEPTANCE_RATE -> 0;
      case VllmReads.AVG_DRAFT_ACCEPTANCE_RATE -> 1;
      case VllmReads.MEAN_ACCEPTANCE_LENGTH -> 2;
      case VllmReads.ACCEPTED -> 3;
      case VllmReads.DRAFTED -> 4;
      case VllmReads.ACCEPTED_THROUGHPUT -> 5;
      case VllmReads.DRAFTED_THROUGHPUT -> 6;
      case VllmReads.PER_POSITION -> 7;
      case VllmReads.NUM_ACCEPTED -> 8;
      case VllmReads.NUM_DRAFT -> 9;
      case VllmReads.NUM_EMITTED -> 10;
      case VllmReads.NUM_SPEC -> 11;
      case VllmReads.SYSTEM_EFFICIENCY -> 12;
      case VllmReads.PROMPT_THROUGHPUT -> 13;
      case VllmReads.GEN_THROUGHPUT -> 14;
      case VllmReads.RUNNING -> 15;
      case VllmReads.WAITING -> 16;
      case VllmReads.PENDING -> 17;
      case VllmReads.SWAPPED -> 18;
      case VllmReads.GPU_KV -> 19;
      case PREFIX_CACHE -> 20;
      case "CPU KV cache usage" -> 21;
      default -> -1;
    };
  }
}
