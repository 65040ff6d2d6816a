package io.specwatch.ingest.context;

import java.util.Locale;

/**
 * Engine spellings of the speculative method to the RunContext's {@code specMethod}: EAGLE3, EAGLE,
 * MTP (SGLang NEXTN, vLLM {@code mtp}, {@code *_mtp}), NGRAM, DRAFT_MODEL (SGLang STANDALONE, vLLM
 * {@code draft_model}), MEDUSA, NONE (no speculation); anything else upper-cased.
 */
public final class SpecMethods {

  public static final String NONE = "NONE";

  /** Used when no source states the method. */
  public static final String UNKNOWN = "UNKNOWN";

  private SpecMethods() {}

  /** Normalised method; null or blank or "none" give {@link #NONE}. */
  public static String normalise(String raw) {
    if (raw == null || raw.isBlank()) {
      return NONE;
    }
    String m = raw.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    return switch (m) {
      case "NONE", "NULL", "OFF", "DISABLED" -> NONE;
      case "EAGLE3", "EAGLE_3" -> "EAGLE3";
      case "EAGLE", "EAGLE2", "EAGLE_2" -> "EAGLE";
      case "NEXTN", "MTP", "DEEPSEEK_MTP" -> "MTP";
      case "NGRAM", "LOOKAHEAD", "PROMPT_LOOKUP" -> "NGRAM";
      case "STANDALONE", "DRAFT_MODEL", "DRAFT" -> "DRAFT_MODEL";
      default -> m.endsWith("_MTP") ? "MTP" : m;
    };
  }
}
