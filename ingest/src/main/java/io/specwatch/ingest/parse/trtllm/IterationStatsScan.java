package io.specwatch.ingest.parse.trtllm;

import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.ACCEPTED;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.ACTIVE;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.DRAFTED;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.DRAFT_MS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.ITER;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.LATENCY;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.LENGTH;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.OVERHEAD;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.QUEUED;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.ROOT_CHARS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.ROOT_KEYS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.ROOT_SLOTS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.SLOTS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.SPEC_CHARS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.SPEC_KEYS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.SPEC_NAMES;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.SPEC_SLOTS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.SPEC_STATS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.TIMESTAMP;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.WITH_DRAFTS;
import static io.specwatch.ingest.parse.trtllm.IterationStatsKeys.indexOf;

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
 * path: {@code TrtllmFastPathCorpusProperties}, {@code TrtllmFastPathMangledProperties} and {@code
 * TrtllmFastPathNumberProperties}.
 *
 * <p>The tokens (whitespace, strings, literals, numbers as Jackson prints them) are read by {@link
 * JsonTokenScan}; the keys this knows and their typed slots are {@link IterationStatsKeys}; this
 * class walks the objects and arrays, builds the flattened raw fields and does the typed reads.
 */
final class IterationStatsScan extends JsonTokenScan {

  private static final int MAX_DEPTH = 3;
  private static final int MAX_RAW = 200;
  private static final int MAX_KEY = 1000;

  /** The level of an object: where its known keys go. */
  private static final int ROOT = 0;

  private static final int SPEC = 1;
  private static final int NESTED = 2;
  private static final int SKIPPED = 3;

  private final LinkedHashMap<String, String> raw = new LinkedHashMap<>(32);

  /** Flattened names of object and array values (not in raw), for the duplicate check. */
  private String[] containers = new String[2];

  private int containerCount;

  private final byte[] kinds = new byte[SLOTS];
  private final long[] longs = new long[SLOTS];
  private final double[] doubles = new double[SLOTS];
  private String timestampText;

  private IterationStatsScan(String s) {
    super(s);
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
}
