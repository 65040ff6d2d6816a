package io.specwatch.ingest.parse.trtllm;

import java.util.Arrays;

/**
 * The low-level half of {@link IterationStatsScan}: a cursor over a line's chars and the JSON
 * tokens read at it (whitespace, strings with their escapes, the literals, numbers), each scalar as
 * Jackson's tree holds and prints it. The structure (objects, arrays, keys and what they mean) is
 * the subclass's; every method here gives false or null when the fast path cannot read the token,
 * and decides nothing else.
 *
 * <p>Numbers as Jackson renders them: an integer is an {@code IntNode}/{@code LongNode}, printed as
 * {@link Long#toString} ({@code -0} is {@code 0}); any number with a fraction or an exponent is a
 * {@code DoubleNode} of {@link Double#parseDouble}, printed by {@link Double#toString}. The value
 * is computed exactly without {@code parseDouble} when the digits (up to 15) and the scale (up to
 * 22) allow it (one correctly rounded division of two exact doubles, so the same double). The text
 * is the printed number with its trailing fraction zeros removed when it has at most 7 significant
 * digits and lies in [0.001, 10^7) or is zero: {@link Double#toString} prints exactly that there
 * (checked for every such number on the JDK that runs the tests, see the properties; a one-off
 * check of every number of up to 7 digits passed on OpenJDK 17.0.15), else {@link Double#toString}
 * itself.
 */
abstract class JsonTokenScan {

  private static final int MAX_NUMBER = 40;

  /** What a value was, as far as the typed reads care. */
  static final byte ABSENT = 0;

  static final byte NULL = 1;
  static final byte INT = 2;
  static final byte FLOAT = 3;
  static final byte STRING = 4;
  static final byte OBJECT = 5;
  static final byte OTHER = 6;

  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  /** The line's chars and a 0 after them: every scan loop stops at a 0 (no JSON allows it). */
  final char[] b;

  final int n;
  int pos;

  /** The last scalar scanned: its kind, text as Jackson prints it, and number. */
  byte kind;

  String text;
  long longValue;
  double doubleValue;

  JsonTokenScan(String s) {
    n = s.length();
    b = new char[n + 1];
    s.getChars(0, n, b, 0);
  }

  final void skipSpace() {
    char ch = b[pos];
    while (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      ch = b[++pos];
    }
  }

  final boolean atEnd() {
    skipSpace();
    return pos == n;
  }

  /**
   * The index of the known key whose chars and closing quote follow pos (just after the opening
   * quote), trying {@code hint} first, with pos after the quote; or -1 and pos unmoved.
   */
  final int knownKey(char[][] keys, int hint) {
    for (int j = 0; j < keys.length; j++) {
      int i = hint + j < keys.length ? hint + j : hint + j - keys.length;
      char[] key = keys[i];
      int end = pos + key.length;
      if (end < n && b[end] == '"' && Arrays.equals(b, pos, end, key, 0, key.length)) {
        pos = end + 1;
        return i;
      }
    }
    return -1;
  }

  /**
   * The string from pos (just after the opening quote) to its closing quote, with escapes decoded
   * as JSON (and Jackson) reads them, pos after the closing quote; null when it holds a character
   * outside printable ASCII, a bad escape, an escaped surrogate or no closing quote. Surrogates are
   * left to Jackson: it reads an unpaired one in a value but rejects it in a field name
   * ("Unexpected low surrogate in field name"), which this scanner does not tell apart.
   */
  final String string() {
    int start = pos;
    int i = pos;
    char ch = b[i];
    while (ch >= 0x20 && ch <= 0x7e && ch != '"' && ch != '\\') {
      ch = b[++i];
    }
    if (ch == '"') {
      pos = i + 1;
      return new String(b, start, i - start);
    }
    if (ch != '\\') {
      return null;
    }
    StringBuilder sb = new StringBuilder(i - start + 16).append(b, start, i - start);
    pos = i;
    while (true) {
      ch = b[pos++];
      if (ch == '"') {
        return sb.toString();
      }
      if (ch < 0x20 || ch > 0x7e) {
        return null; // also the 0 after the line
      }
      if (ch != '\\') {
        sb.append(ch);
        continue;
      }
      char e = b[pos++];
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          int v = 0;
          for (int k = 0; k < 4; k++) {
            int d = hex(b[pos++]);
            if (d < 0) {
              return null; // also the 0 after the line, before reading past it
            }
            v = v << 4 | d;
          }
          if (v >= Character.MIN_SURROGATE && v <= Character.MAX_SURROGATE) {
            return null;
          }
          sb.append((char) v);
        }
        default -> {
          return null; // also the 0 after the line
        }
      }
    }
  }

  /** Scans the scalar starting at pos (its first char ch) into kind, text and the number fields. */
  final boolean scalar(char ch) {
    longValue = 0;
    doubleValue = 0;
    switch (ch) {
      case '"':
        pos++;
        text = string();
        kind = STRING;
        return text != null;
      case 't':
        return literal("true", OTHER);
      case 'f':
        return literal("false", OTHER);
      case 'n':
        return literal("null", NULL);
      default:
        return number();
    }
  }

  private boolean literal(String word, byte k) {
    int len = word.length();
    if (pos + len > n) {
      return false;
    }
    for (int i = 0; i < len; i++) {
      if (b[pos + i] != word.charAt(i)) {
        return false;
      }
    }
    pos += len;
    kind = k;
    text = word;
    return true;
  }

  /** A JSON number at pos, as Jackson's tree holds and prints it. */
  private boolean number() {
    int start = pos;
    int i = pos;
    boolean negative = b[i] == '-';
    if (negative) {
      i++;
    }
    int intStart = i;
    char ch = b[i];
    if (ch == '0') {
      i++;
    } else if (ch >= '1' && ch <= '9') {
      while (isDigit(b[i])) {
        i++;
      }
    } else {
      return false;
    }
    int intEnd = i;
    if (isDigit(b[i])) {
      return false; // a leading zero: Jackson rejects it
    }
    int fracStart = -1;
    int fracEnd = -1;
    if (b[i] == '.') {
      fracStart = ++i;
      while (isDigit(b[i])) {
        i++;
      }
      fracEnd = i;
      if (fracEnd == fracStart) {
        return false;
      }
    }
    boolean exponent = false;
    if (b[i] == 'e' || b[i] == 'E') {
      exponent = true;
      i++;
      if (b[i] == '+' || b[i] == '-') {
        i++;
      }
      int expStart = i;
      while (isDigit(b[i])) {
        i++;
      }
      if (i == expStart) {
        return false;
      }
    }
    if (i - start > MAX_NUMBER) {
      return false;
    }
    pos = i;
    if (fracStart < 0 && !exponent) {
      if (intEnd - intStart > 18) {
        return false; // a LongNode or a BigIntegerNode: not read here
      }
      long v = 0;
      for (int k = intStart; k < intEnd; k++) {
        v = v * 10 + (b[k] - '0');
      }
      kind = INT;
      longValue = negative ? -v : v;
      text = v == 0 ? "0" : new String(b, start, i - start);
      return true;
    }
    kind = FLOAT;
    if (exponent) {
      doubleValue = Double.parseDouble(new String(b, start, i - start));
      text = Double.toString(doubleValue);
      return true;
    }
    // trailing zeros of the fraction do not change the value; keep one digit
    int fe = fracEnd;
    while (fe > fracStart + 1 && b[fe - 1] == '0') {
      fe--;
    }
    int digits = intEnd - intStart + fe - fracStart;
    if (digits <= 15) {
      long m = 0;
      for (int k = intStart; k < intEnd; k++) {
        m = m * 10 + (b[k] - '0');
      }
      for (int k = fracStart; k < fe; k++) {
        m = m * 10 + (b[k] - '0');
      }
      // m < 10^15 < 2^53 and 10^scale (scale <= 15) are exact doubles: one correct rounding
      double v = m / POW10[fe - fracStart];
      doubleValue = negative ? -v : v;
    } else {
      doubleValue = Double.parseDouble(new String(b, start, i - start));
    }
    text =
        canonical(intStart, intEnd, fracStart, fe)
            ? new String(b, start, fe - start)
            : Double.toString(doubleValue);
    return true;
  }

  /**
   * Whether the number's sign, integer part and fraction up to {@code fe} (trailing zeros removed
   * but one digit kept) is what {@link Double#toString} prints for its value: at most 7 significant
   * digits, in [0.001, 10^7) or zero.
   */
  private boolean canonical(int intStart, int intEnd, int fracStart, int fe) {
    int intDigits = intEnd - intStart;
    if (intDigits > 7) {
      return false;
    }
    if (b[intStart] != '0') {
      // significant digits: the integer part and the fraction, but an integral value prints ".0"
      boolean integral = fe == fracStart + 1 && b[fracStart] == '0';
      return intDigits + (integral ? 0 : fe - fracStart) <= 7;
    }
    int first = fracStart;
    while (first < fe && b[first] == '0') {
      first++;
    }
    if (first == fe) {
      return true; // zero (fe == fracStart + 1): "0.0" or "-0.0"
    }
    return first - fracStart <= 2 && fe - first <= 7;
  }

  private static int hex(char ch) {
    if (ch >= '0' && ch <= '9') {
      return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
      return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return -1;
  }

  private static boolean isDigit(char ch) {
    return ch >= '0' && ch <= '9';
  }
}
