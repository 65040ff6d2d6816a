package io.specwatch.ingest.generate;

/** Speculative method of a synthetic deployment; {@link #NONE} is a plain (baseline) deployment. */
public enum SpecMethod {
  EAGLE3("EAGLE3", "EAGLE3"),
  /** EAGLE-1/2 algorithm: with an EAGLE-3 draft head this is the tau = 1.00 collapse. */
  EAGLE("EAGLE", "EAGLE"),
  MTP("MTP", "NEXTN"),
  NGRAM("NGRAM", "NGRAM"),
  DRAFT("DRAFT_MODEL", "STANDALONE"),
  NONE("NONE", null);

  private final String wireName;
  private final String sglangAlgorithm;

  SpecMethod(String wireName, String sglangAlgorithm) {
    this.wireName = wireName;
    this.sglangAlgorithm = sglangAlgorithm;
  }

  /** The name written to run-context lines and RunContext.specMethod. */
  public String wireName() {
    return wireName;
  }

  /** SGLang's {@code --speculative-algorithm} value, or null for {@link #NONE}. */
  public String sglangAlgorithm() {
    return sglangAlgorithm;
  }

  public boolean speculative() {
    return this != NONE;
  }
}
