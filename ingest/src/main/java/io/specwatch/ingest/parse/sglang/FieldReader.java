package io.specwatch.ingest.parse.sglang;

import java.util.Map;

/** Typed reads of printed fields that remember the first error instead of throwing. */
final class FieldReader {

  private final Map<String, String> raw;
  private String error;
  private String noValue;

  FieldReader(Map<String, String> raw) {
    this.raw = raw;
  }

  /**
   * First error met, naming the field, or null. A field printed without a value is an error too,
   * reported only when nothing else is wrong (a line cut after its last colon keeps naming the
   * missing required field).
   */
  String error() {
    return error != null ? error : noValue;
  }

  Integer nonNegativeInt(String name, boolean required) {
    Long value = nonNegativeLong(name, required);
    if (value == null) {
      return null;
    }
    if (value > Integer.MAX_VALUE) {
      return fail(name + " out of range: " + value);
    }
    return value.intValue();
  }

  Long nonNegativeLong(String name, boolean required) {
    String text = text(name, required);
    if (text == null) {
      return null;
    }
    try {
      long value = Long.parseLong(text);
      return value < 0 ? fail(name + " is negative: " + text) : value;
    } catch (NumberFormatException e) {
      return fail(name + " is not an integer: '" + text + "'");
    }
  }

  Double nonNegativeDouble(String name, boolean required) {
    String text = text(name, required);
    if (text == null) {
      return null;
    }
    if (plainDecimal(text)) {
      // only digits, '.', '+', '-': no letter, so neither "nan"/"inf" nor a letter check can
      // fail; the same result as the checks below
      try {
        double value = Double.parseDouble(text);
        if (!Double.isFinite(value)) {
          return fail(name + " is not a finite number: '" + text + "'");
        }
        return value < 0 ? fail(name + " is negative: " + text) : value;
      } catch (NumberFormatException e) {
        return fail(name + " is not a number: '" + text + "'");
      }
    }
    String lower = text.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("nan") || lower.contains("inf")) {
      return fail(name + " is not a finite number: '" + text + "'");
    }
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return fail(name + " is not a number: '" + text + "'");
    }
    if (!Double.isFinite(value) || text.chars().anyMatch(Character::isLetter)) {
      return fail(name + " is not a finite number: '" + text + "'");
    }
    return value < 0 ? fail(name + " is negative: " + text) : value;
  }

  /** Whether text holds only ASCII digits, '.', '+' and '-' (the common case of a number). */
  static boolean plainDecimal(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < '0' || c > '9') && c != '.' && c != '-' && c != '+') {
        return false;
      }
    }
    return true;
  }

  /** The first graph flag present among names, as a boolean. */
  Boolean graph(String... names) {
    for (String name : names) {
      String text = raw.get(name);
      if (text == null) {
        continue;
      }
      return switch (text) {
        case "True", "true" -> Boolean.TRUE;
        case "False", "false" -> Boolean.FALSE;
        default -> fail(name + " is not True/False: '" + text + "'");
      };
    }
    return null;
  }

  private String text(String name, boolean required) {
    String text = raw.get(name);
    if (text == null) {
      return required ? fail("missing field '" + name + "'") : null;
    }
    if (text.isEmpty()) {
      // printed with no value (a line cut or overwritten after the colon): unreadable, not absent
      if (noValue == null) {
        noValue = "field '" + name + "' has no value";
      }
      return null;
    }
    return text;
  }

  private <T> T fail(String message) {
    if (error == null) {
      error = message;
    }
    return null;
  }
}
