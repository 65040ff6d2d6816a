package io.specwatch.testkit;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Names that no other test (or earlier run) uses: topics, consumer groups, databases, subjects. */
public final class UniqueNames {

  private static final Pattern PREFIX = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,100}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private UniqueNames() {}

  /**
   * {@code prefix + "_" + 12 hex digits}. With a prefix of letters, digits and underscores the
   * result is also a valid unquoted ClickHouse identifier.
   */
  public static String uniqueName(String prefix) {
    if (prefix == null || !PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException(
          "prefix must match " + PREFIX.pattern() + ", got: '" + prefix + "'");
    }
    byte[] bytes = new byte[6];
    RANDOM.nextBytes(bytes);
    return prefix + "_" + HexFormat.of().formatHex(bytes);
  }
}
