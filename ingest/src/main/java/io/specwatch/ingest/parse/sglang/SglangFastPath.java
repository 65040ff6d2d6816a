package io.specwatch.ingest.parse.sglang;

import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.PlainNumbers;
import io.specwatch.ingest.parse.RawFields;

/**
 * The common shape of a {@code Decode batch} body read in one pass, without the field map, its
 * strings or the number parsers of {@link SglangDecodeBatchParser}'s general path: {@code Decode
 * batch. } (or {@code ,}) and then {@code name: value} fields separated by {@code ", "} (a trailing
 * one allowed), every name printable ASCII without leading or trailing space and at most 80 chars,
 * every value printable ASCII without space or comma, no name twice, every field the line needs
 * present and readable. Any other body (a {@code [forward_ct]}, free text, other spacing, a value
 * out of range, a missing field) gets null and the general path reads it, so the results are the
 * general path's on every line ({@code SglangFastPathProperties}). The raw fields are kept as spans
 * of the body ({@link RawFields#ofSpans}), encoded only when an event needs them.
 */
final class SglangFastPath {

  private SglangFastPath() {}

  private static final String MARKER = "Decode batch";
  private static final int MAX_NAME = 80;
  private static final int MAX_FIELDS = 48;

  // slots of the names the record reads
  private static final int RUNNING = 0;
  private static final int TOKEN = 1;
  private static final int TOKEN_USAGE = 2;
  private static final int ACCEPT_LEN = 3;
  private static final int ACCEPT_RATE = 4;
  private static final int CUDA_GRAPH = 5;
  private static final int NPU_GRAPH = 6;
  private static final int CPU_GRAPH = 7;
  private static final int GEN_THROUGHPUT = 8;
  private static final int QUEUE = 9;
  private static final int PRE_ALLOCATED = 10;
  private static final int RETRACTED = 11;
  private static final int FORWARD_CT = 12;

  private static final String[] KNOWN = {
    SglangDecodeBatchParser.RUNNING,
    SglangDecodeBatchParser.TOKEN,
    SglangDecodeBatchParser.TOKEN_USAGE,
    SglangDecodeBatchParser.ACCEPT_LEN,
    SglangDecodeBatchParser.ACCEPT_RATE,
    "cuda graph",
    "npu graph",
    "cpu graph",
    SglangDecodeBatchParser.GEN_THROUGHPUT,
    SglangDecodeBatchParser.QUEUE,
    SglangDecodeBatchParser.PRE_ALLOCATED,
    SglangDecodeBatchParser.RETRACTED,
    SglangDecodeBatchParser.FORWARD_CT
  };

  /**
   * The line read from its body (after the prefix), or null when the body is not of the common
   * shape or any field would be an error: then the general path must read it.
   */
  static SglangDecodeBatch read(LinePrefix prefix, String body) {
    int n = body.length();
    if (!body.startsWith(MARKER)) {
      return null;
    }
    int i = MARKER.length();
    if (i + 2 >= n
        || (body.charAt(i) != '.' && body.charAt(i) != ',')
        || body.charAt(i + 1) != ' ') {
      return null;
    }
    i += 2;
    // per-thread work arrays (the result keeps copies of their used part): ~1 KB less garbage
    Scratch scratch = SCRATCH.get();
    String[] names = scratch.names;
    int[] spans = scratch.spans;
    int[] nameSpans = scratch.nameSpans; // of names not in KNOWN (null in names until the end)
    int[] slot = scratch.slot; // 1 + field index of each known name, 0 when absent
    java.util.Arrays.fill(slot, 0);
    int count = 0;
    while (i < n) {
      // name: printable ASCII up to the first colon, no comma, no space at either end
      int nameStart = i;
      char c = body.charAt(i);
      if (c == ' ') {
        return null;
      }
      while (c != ':') {
        if (c < ' ' || c > '~' || c == ',') {
          return null;
        }
        if (++i >= n) {
          return null;
        }
        c = body.charAt(i);
      }
      int nameEnd = i;
      if (nameEnd == nameStart
          || body.charAt(nameEnd - 1) == ' '
          || nameEnd - nameStart > MAX_NAME) {
        return null;
      }
      // ": " then the value: printable ASCII, no space or comma, up to ", " or the end
      if (i + 2 >= n || body.charAt(i + 1) != ' ') {
        return null;
      }
      i += 2;
      int valueStart = i;
      while (i < n) {
        c = body.charAt(i);
        if (c == ',') {
          break;
        }
        if (c <= ' ' || c > '~') {
          return null;
        }
        i++;
      }
      int valueEnd = i;
      if (valueEnd == valueStart || count == MAX_FIELDS) {
        return null;
      }
      if (i < n) { // at ", "
        if (i + 1 >= n || body.charAt(i + 1) != ' ') {
          return null;
        }
        i += 2;
        if (i < n && body.charAt(i) == ' ') {
          return null;
        }
      }
      if (count == names.length) {
        names = scratch.names = java.util.Arrays.copyOf(names, count * 2);
        spans = scratch.spans = java.util.Arrays.copyOf(spans, count * 4);
        nameSpans = scratch.nameSpans = java.util.Arrays.copyOf(nameSpans, count * 4);
      }
      int k = known(body, nameStart, nameEnd);
      if (k >= 0) {
        if (slot[k] != 0) {
          return null; // duplicate
        }
        slot[k] = count + 1;
        names[count] = KNOWN[k];
      } else {
        for (int j = 0; j < count; j++) {
          if (names[j] == null
              && nameSpans[2 * j + 1] - nameSpans[2 * j] == nameEnd - nameStart
              && body.regionMatches(nameSpans[2 * j], body, nameStart, nameEnd - nameStart)) {
            return null; // duplicate
          }
        }
        names[count] = null; // the work array may hold a name of an earlier line
        nameSpans[2 * count] = nameStart;
        nameSpans[2 * count + 1] = nameEnd;
      }
      spans[2 * count] = valueStart;
      spans[2 * count + 1] = valueEnd;
      count++;
    }
    long running = integer(body, spans, slot[RUNNING], Integer.MAX_VALUE);
    long tokens = integer(body, spans, slot[TOKEN], Long.MAX_VALUE);
    double usage = decimal(body, spans, slot[TOKEN_USAGE]);
    double throughput = decimal(body, spans, slot[GEN_THROUGHPUT]);
    long queued = integer(body, spans, slot[QUEUE], Integer.MAX_VALUE);
    if (running < 0 || tokens < 0 || usage < 0 || throughput < 0 || queued < 0) {
      return null; // missing or unreadable: the general path names the error
    }
    Double acceptLen = null;
    if (slot[ACCEPT_LEN] != 0) {
      double v = decimal(body, spans, slot[ACCEPT_LEN]);
      if (v < 0) {
        return null;
      }
      acceptLen = v;
    }
    Double acceptRate = null;
    if (slot[ACCEPT_RATE] != 0) {
      double v = decimal(body, spans, slot[ACCEPT_RATE]);
      if (v < 0) {
        return null;
      }
      acceptRate = v;
    }
    Double preAllocated = null;
    if (slot[PRE_ALLOCATED] != 0) {
      double v = decimal(body, spans, slot[PRE_ALLOCATED]);
      if (v < 0) {
        return null;
      }
      preAllocated = v;
    }
    Integer retracted = null;
    if (slot[RETRACTED] != 0) {
      long v = integer(body, spans, slot[RETRACTED], Integer.MAX_VALUE);
      if (v < 0) {
        return null;
      }
      retracted = (int) v;
    }
    Long forwardCt = null;
    if (slot[FORWARD_CT] != 0) {
      long v = integer(body, spans, slot[FORWARD_CT], Long.MAX_VALUE);
      if (v < 0) {
        return null;
      }
      forwardCt = v;
    }
    Boolean graph = null;
    int g =
        slot[CUDA_GRAPH] != 0
            ? slot[CUDA_GRAPH]
            : slot[NPU_GRAPH] != 0 ? slot[NPU_GRAPH] : slot[CPU_GRAPH];
    if (g != 0) {
      int from = spans[2 * (g - 1)];
      int len = spans[2 * (g - 1) + 1] - from;
      if (len == 4 && (body.startsWith("True", from) || body.startsWith("true", from))) {
        graph = Boolean.TRUE;
      } else if (len == 5 && (body.startsWith("False", from) || body.startsWith("false", from))) {
        graph = Boolean.FALSE;
      } else {
        return null;
      }
    }
    for (int j = 0; j < count; j++) {
      if (names[j] == null) {
        names[j] = body.substring(nameSpans[2 * j], nameSpans[2 * j + 1]);
      }
    }
    return new SglangDecodeBatch(
        prefix,
        (int) running,
        tokens,
        usage,
        acceptLen,
        acceptRate,
        graph,
        throughput,
        (int) queued,
        preAllocated,
        retracted,
        forwardCt,
        RawFields.ofSpans(
            body,
            java.util.Arrays.copyOf(names, count),
            java.util.Arrays.copyOf(spans, 2 * count),
            null));
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /** Work arrays of {@link #read}, one set per thread. */
  private static final class Scratch {
    String[] names = new String[16];
    int[] spans = new int[32];
    int[] nameSpans = new int[32];
    final int[] slot = new int[KNOWN.length];
  }

  /** Index in KNOWN of the name, or -1. */
  private static int known(String s, int from, int to) {
    int len = to - from;
    for (int k = 0; k < KNOWN.length; k++) {
      String name = KNOWN[k];
      if (name.length() == len && s.startsWith(name, from)) {
        return k;
      }
    }
    return -1;
  }

  /**
   * The field's value when it is 1 to 18 ASCII digits at most max ({@link PlainNumbers#count}), or
   * -1 when the field is absent or is not.
   */
  private static long integer(String s, int[] spans, int slot, long max) {
    if (slot == 0) {
      return -1;
    }
    long v = PlainNumbers.count(s, spans[2 * (slot - 1)], spans[2 * (slot - 1) + 1]);
    return v <= max ? v : -1;
  }

  /**
   * The field's value when it is a plain decimal of at most 15 digits ({@link
   * PlainNumbers#decimal}: what {@link Double#parseDouble} returns), or -1 when the field is absent
   * or is not.
   */
  private static double decimal(String s, int[] spans, int slot) {
    if (slot == 0) {
      return -1;
    }
    return PlainNumbers.decimal(s, spans[2 * (slot - 1)], spans[2 * (slot - 1) + 1]);
  }
}
