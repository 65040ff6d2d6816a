package io.specwatch.sink.clickhouse;

/**
 * Which SQL the server accepts. {@link #LEGACY} is what ClickHouse 18.16 (Debian 12's package, the
 * tests' server) understands: {@code DateTime}, plain {@code String}, no TTL, no CODEC, no insert
 * dedup on plain MergeTree. {@link #MODERN} is every server from {@link #MODERN_SINCE_MAJOR}.{@link
 * #MODERN_SINCE_MINOR} on (production runs 24.x and later): {@code DateTime64(3)}, {@code
 * LowCardinality}, TTL, column codecs, {@code non_replicated_deduplication_window} and insert
 * deduplication tokens. Servers between the two get the legacy forms, which every version accepts.
 */
public enum SqlDialect {
  LEGACY,
  MODERN;

  /**
   * 22.3 LTS is the first release that has every modern feature used here (DateTime64 since 20.1,
   * TTL and codecs since 19.x, LowCardinality without the experimental flag since 19.x, {@code
   * insert_deduplication_token} since 22.2).
   */
  public static final int MODERN_SINCE_MAJOR = 22;

  public static final int MODERN_SINCE_MINOR = 3;

  /** The dialect a server of this version gets. */
  public static SqlDialect of(ServerVersion version) {
    return version.atLeast(MODERN_SINCE_MAJOR, MODERN_SINCE_MINOR) ? MODERN : LEGACY;
  }

  public boolean isModern() {
    return this == MODERN;
  }
}
