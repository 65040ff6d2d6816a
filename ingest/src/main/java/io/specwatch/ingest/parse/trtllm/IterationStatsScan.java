package io.specwatch.ingest.parse.trtllm;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.ParseResult;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;

/**
 * The fast path of {@link TrtllmIterationStatsParser}: one pass over the JSON object's text that
 * gives the same rawFields (names, texts, order) and the same typed values as Jackson's tree, its
 * {@code flatten} and its {@code Reader} do, for the common shape of a well-formed iteration-stats
 * line that parses without error. Anything else gives null before a result exists, and the parser
 * then reads the line with Jackson as before (the reference, also for every failure message):
 * malformed JSON, a key twice in one object (Jackson keeps the last value at the first key's
 * place), objects or arrays nested deeper than 3, more than 200 raw fields, any character outside
 * printable ASCII in a string (or a control character anywhere), an integer of more than 18 digits,
 * a number longer than 40 characters, a key longer than 1000, and every line whose typed values
 * would fail (negative, not an integer, missing, accepted > drafted...). Equality with the Jackson
 * path: {@code TrtllmFastPathProperties}.
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
final class IterationStatsScan {

  private static final int MAX_DEPTH = 3;
  private static final int MAX_RAW = 200;
  private static final int MAX_KEY = 1000;
  private static final int MAX_NUMBER = 40;

  /** What a value was, as far as the typed reads care. */
  private static final byte ABSENT = 0;

  private static final byte NULL = 1;
  private static final byte INT = 2;
  private static final byte FLOAT = 3;
  private static final byte STRING = 4;
  private static final byte OBJECT = 5;
  private static final byte OTHER = 6;

  /** The level of an object: where its known keys go. */
  private static final int ROOT = 0;

  private static final int SPEC = 1;
  private static final int NESTED = 2;
  private static final int SKIPPED = 3;

  /** Typed slots: root fields, then specDecodingStats fields. */
  private static final int TIMESTAMP = 0;

  private static final int ITER = 1;
  private static final int LATENCY = 2;
  private static final int ACTIVE = 3;
  private static final int QUEUED = 4;
  private static final int SPEC_STATS = 5;
  private static final int DRAFTED = 6;
  private static final int ACCEPTED = 7;
  private static final int WITH_DRAFTS = 8;
  private static final int LENGTH = 9;
  private static final int DRAFT_MS = 10;
  private static final int OVERHEAD = 11;
  private static final int SLOTS = 12;

  private static final String SPEC_NAME = "specDecodingStats";

  /**
   * Root keys (slot, or -1): the names TensorRT-LLM prints, in its order, so that a key is usually
   * found at the first comparison and its name is not copied.
   */
  private static final String[] ROOT_KEYS = {
    "cpuMemUsage",
    "gpuMemUsage",
    "timestamp",
    "iter",
    "iterLatencyMS",
    "numActiveRequests",
    "numQueuedRequests",
    "maxNumActiveRequests",
    SPEC_NAME
  };

  private static final int[] ROOT_SLOTS = {
    -1, -1, TIMESTAMP, ITER, LATENCY, ACTIVE, QUEUED, -1, SPEC_STATS
  };
  private static final char[][] ROOT_CHARS = chars(ROOT_KEYS);
  private static final String[] SPEC_KEYS = {
    "numDraftTokens",
    "numAcceptedTokens",
    "numRequestsWithDraftTokens",
    "acceptanceLength",
    "iterLatencyMS",
    "draftOverhead"
  };
  private static final int[] SPEC_SLOTS = {
    DRAFTED, ACCEPTED, WITH_DRAFTS, LENGTH, DRAFT_MS, OVERHEAD
  };
  private static final char[][] SPEC_CHARS = chars(SPEC_KEYS);

  /** The flattened names of {@link #SPEC_KEYS} under {@code specDecodingStats}. */
  private static final String[] SPEC_NAMES = new String[SPEC_KEYS.length];

  static {
    for (int i = 0; i < SPEC_KEYS.length; i++) {
      SPEC_NAMES[i] = SPEC_NAME + "." + SPEC_KEYS[i];
    }
  }

  private static char[][] chars(String[] keys) {
    char[][] chars = new char[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      chars[i] = keys[i].toCharArray();
    }
    return chars;
  }

  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  /** The line's chars and a 0 after them: every scan loop stops at a 0 (no JSON allows it). */
  private final char[] b;

  private final int n;
  private int pos;
  private final LinkedHashMap<String, String> raw = new LinkedHashMap<>(32);

  /** Flattened names of object and array values (not in raw), for the duplicate check. */
  private String[] containers = new String[2];

  private int containerCount;

  private final byte[] kinds = new byte[SLOTS];
  private final long[] longs = new long[SLOTS];
  private final double[] doubles = new double[SLOTS];
  private String timestampText;

  /** The last scalar scanned: its kind, text as Jackson prints it, and number. */
  private byte kind;

  private String text;
  private long longValue;
  private double doubleValue;

  private IterationStatsScan(String s) {
    n = s.length();
    b = new char[n + 1];
    s.getChars(0, n, b, 0);
  }

  /**
   * The parse result of {@code line}, whose JSON object starts at {@code brace}, or null when the
   * line is not of the shape this reads exactly like Jackson (then nothing is decided).
   */
  static ParseResult parse(String line, int brace, LinePrefix prefix) {
    IterationStatsScan scan = new IterationStatsScan(line);
    scan.pos = brace + 1;
    if (!scan.object("", 0, ROOT) || !scan.atEnd()) {
      return null;
    }
    return scan.result(prefix);
  }

  private ParseResult result(LinePrefix prefix) {
    Double latency = number(LATENCY);
    Long iter = count(ITER);
    Long active = count(ACTIVE);
    Long queued = count(QUEUED);
    if (latency == null
        || iter == null && kinds[ITER] > NULL
        || active == null && kinds[ACTIVE] > NULL
        || queued == null && kinds[QUEUED] > NULL) {
      return null;
    }
    Long drafted = null;
    Long accepted = null;
    Long withDrafts = null;
    Double length = null;
    Double draftMs = null;
    Double overhead = null;
    byte spec = kinds[SPEC_STATS];
    if (spec == OBJECT) {
      drafted = count(DRAFTED);
      accepted = count(ACCEPTED);
      withDrafts = count(WITH_DRAFTS);
      length = number(LENGTH);
      draftMs = number(DRAFT_MS);
      overhead = number(OVERHEAD);
      if (drafted == null
          || accepted == null
          || withDrafts == null && kinds[WITH_DRAFTS] > NULL
          || length == null && kinds[LENGTH] > NULL
          || draftMs == null && kinds[DRAFT_MS] > NULL
          || overhead == null && kinds[OVERHEAD] > NULL
          || accepted > drafted) {
        return null;
      }
    } else if (spec != ABSENT && spec != NULL) {
      return null;
    }
    if (active != null && active > Integer.MAX_VALUE
        || queued != null && queued > Integer.MAX_VALUE) {
      return null;
    }
    LocalDateTime timestamp = prefix.timestamp();
    if (timestamp == null && timestampText != null) {
      timestamp = TrtllmIterationStatsParser.parseTime(timestampText);
    }
    return TrtllmIterationStatsParser.parsed(
        prefix,
        timestamp,
        iter,
        latency,
        active,
        queued,
        drafted,
        accepted,
        withDrafts,
        length,
        draftMs,
        overhead,
        raw);
  }

  /**
   * The Reader's {@code count}: a non-negative integer, or null when absent, null or an error (the
   * caller tells these apart by the kind; a required count is never null).
   */
  private Long count(int slot) {
    switch (kinds[slot]) {
      case INT:
        return longs[slot] < 0 ? null : longs[slot];
      case FLOAT:
        double v = doubles[slot];
        // DoubleNode: in long range, integral, not negative; bounded well inside the long range
        return v >= 0 && v < 1e15 && v == Math.rint(v) ? (long) v : null;
      default:
        return null;
    }
  }

  /** The Reader's {@code number}: a finite non-negative number, else null (see count). */
  private Double number(int slot) {
    double v;
    switch (kinds[slot]) {
      case INT:
        v = longs[slot];
        break;
      case FLOAT:
        v = doubles[slot];
        break;
      default:
        return null;
    }
    return Double.isFinite(v) && !(v < 0) ? v : null;
  }

  private void skipSpace() {
    char ch = b[pos];
    while (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      ch = b[++pos];
    }
  }

  private boolean atEnd() {
    skipSpace();
    return pos == n;
  }

  /**
   * Scans the object whose '{' was just passed, putting its scalars under {@code path}; false when
   * the fast path cannot read it.
   */
  private boolean object(String path, int depth, int level) {
    skipSpace();
    if (b[pos] == '}') {
      pos++;
      return true;
    }
    char[][] known = level == ROOT ? ROOT_CHARS : level == SPEC ? SPEC_CHARS : null;
    int hint = 0;
    while (true) {
      if (b[pos] != '"') {
        return false;
      }
      pos++;
      // the key: its flattened name and its typed slot
      String name = null;
      int slot = -1;
      int k = known == null ? -1 : knownKey(known, hint);
      if (k >= 0) {
        hint = k + 1;
        name = level == ROOT ? ROOT_KEYS[k] : SPEC_NAMES[k];
        slot = level == ROOT ? ROOT_SLOTS[k] : SPEC_SLOTS[k];
      } else {
        String key = string();
        if (key == null || key.length() > MAX_KEY) {
          return false;
        }
        if (known != null) {
          // an escaped key can still be a known one
          k = indexOf(level == ROOT ? ROOT_KEYS : SPEC_KEYS, key);
        }
        if (k >= 0) {
          name = level == ROOT ? ROOT_KEYS[k] : SPEC_NAMES[k];
          slot = level == ROOT ? ROOT_SLOTS[k] : SPEC_SLOTS[k];
        } else if (level != SKIPPED) {
          name = path.isEmpty() ? key : path + "." + key;
        }
      }
      skipSpace();
      if (b[pos] != ':') {
        return false;
      }
      pos++;
      skipSpace();
      char ch = b[pos];
      if (ch == '{' || ch == '[') {
        pos++;
        if (depth >= MAX_DEPTH) {
          return false;
        }
        if (level != SKIPPED) {
          if (raw.containsKey(name) || isContainer(name) || raw.size() > MAX_RAW) {
            return false;
          }
          addContainer(name);
          if (slot >= 0) {
            kinds[slot] = ch == '{' ? OBJECT : OTHER;
          }
        }
        boolean ok;
        if (ch == '[') {
          ok = array(depth + 1);
        } else if (level == SKIPPED) {
          ok = object(null, depth + 1, SKIPPED);
        } else {
          ok = object(name, depth + 1, slot == SPEC_STATS ? SPEC : NESTED);
        }
        if (!ok) {
          return false;
        }
      } else {
        if (!scalar(ch)) {
          return false;
        }
        if (level != SKIPPED) {
          if (raw.put(name, text) != null || isContainer(name) || raw.size() > MAX_RAW) {
            return false;
          }
          if (slot >= 0) {
            kinds[slot] = kind;
            longs[slot] = longValue;
            doubles[slot] = doubleValue;
            if (slot == TIMESTAMP && kind == STRING) {
              timestampText = text;
            }
          }
        }
      }
      skipSpace();
      ch = b[pos++];
      if (ch == '}') {
        return true;
      }
      if (ch != ',') {
        return false;
      }
      skipSpace();
    }
  }

  /**
   * The index of the known key whose chars and closing quote follow pos (just after the opening
   * quote), trying {@code hint} first, with pos after the quote; or -1 and pos unmoved.
   */
  private int knownKey(char[][] keys, int hint) {
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

  /** Scans the array whose '[' was just passed: syntax only, flatten skips arrays. */
  private boolean array(int depth) {
    skipSpace();
    if (b[pos] == ']') {
      pos++;
      return true;
    }
    while (true) {
      char ch = b[pos];
      if (ch == '{' || ch == '[') {
        pos++;
        if (depth >= MAX_DEPTH) {
          return false;
        }
        if (!(ch == '{' ? object(null, depth + 1, SKIPPED) : array(depth + 1))) {
          return false;
        }
      } else if (!scalar(ch)) {
        return false;
      }
      skipSpace();
      ch = b[pos++];
      if (ch == ']') {
        return true;
      }
      if (ch != ',') {
        return false;
      }
      skipSpace();
    }
  }

  private boolean isContainer(String name) {
    for (int i = 0; i < containerCount; i++) {
      if (containers[i].equals(name)) {
        return true;
      }
    }
    return false;
  }

  private void addContainer(String name) {
    if (containerCount == containers.length) {
      containers = Arrays.copyOf(containers, containerCount * 2);
    }
    containers[containerCount++] = name;
  }

  private static int indexOf(String[] keys, String key) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The string from pos (just after the opening quote) to its closing quote, with escapes decoded
   * as JSON (and Jackson) reads them, pos after the closing quote; null when it holds a character
   * outside printable ASCII, a bad escape or no closing quote.
   */
  private String string() {
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
          sb.append((char) v);
        }
        default -> {
          return null; // also the 0 after the line
        }
      }
    }
  }

  /** Scans the scalar starting at pos (its first char ch) into kind, text and the number fields. */
  private boolean scalar(char ch) {
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
