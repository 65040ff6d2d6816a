package io.specwatch.serde;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/** Typed reads of raw client settings that fail fast naming the setting. */
final class ConfigValues {
  private ConfigValues() {}

  static String string(Map<String, ?> config, String key, String defaultValue) {
    Object raw = config.get(key);
    if (raw == null) {
      return defaultValue;
    }
    String value = raw.toString().trim();
    return value.isEmpty() ? defaultValue : value;
  }

  /** Like {@link #string} but never echoes the value in an error message. */
  static String secret(Map<String, ?> config, String key) {
    Object raw = config.get(key);
    if (raw == null) {
      return null;
    }
    if (raw instanceof org.apache.kafka.common.config.types.Password password) {
      return password.value();
    }
    String value = raw.toString();
    return value.isEmpty() ? null : value;
  }

  static boolean bool(Map<String, ?> config, String key, boolean defaultValue) {
    Object raw = config.get(key);
    if (raw == null) {
      return defaultValue;
    }
    if (raw instanceof Boolean b) {
      return b;
    }
    String value = raw.toString().trim();
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    if (value.equalsIgnoreCase("false")) {
      return false;
    }
    throw new ConfigException(key, raw, "expected true or false");
  }

  static long nonNegativeLong(Map<String, ?> config, String key, long defaultValue) {
    Object raw = config.get(key);
    if (raw == null) {
      return defaultValue;
    }
    long value;
    if (raw instanceof Number n) {
      value = n.longValue();
    } else {
      try {
        value = Long.parseLong(raw.toString().trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(key, raw, "expected an integer");
      }
    }
    if (value < 0) {
      throw new ConfigException(key, raw, "must not be negative");
    }
    return value;
  }

  static int nonNegativeInt(Map<String, ?> config, String key, int defaultValue) {
    long value = nonNegativeLong(config, key, defaultValue);
    if (value > Integer.MAX_VALUE) {
      throw new ConfigException(key, config.get(key), "too large");
    }
    return (int) value;
  }
}
