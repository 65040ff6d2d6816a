package io.specwatch.ingest.parse.context;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A lenient reader of Python {@code repr} text as engines print their configuration: {@code
 * key=value, ...} keyword lists, {@code Name(k=v, ...)} objects (read as maps with {@value #TYPE}
 * set to the name), dicts, lists, tuples, quoted strings, numbers, {@code True/False/None} and bare
 * tokens ({@code torch.bfloat16}, {@code cuda:1}, kept as text). Text cut short (a truncated log
 * line) yields what was read so far. Never throws; None reads as Java null.
 */
public final class PyRepr {

  /** Map key holding the class name of a {@code Name(...)} object. */
  public static final String TYPE = "__type__";

  private final String s;
  private int i;

  private PyRepr(String s) {
    this.s = s;
  }

  /** Reads {@code key=value, ...} until the end or an unmatched closing bracket. */
  public static Map<String, Object> kwargs(String text) {
    return new PyRepr(text).readKwargs(')');
  }

  /** Reads one value (a dict for {@code {...}}). */
  public static Object value(String text) {
    return new PyRepr(text).readValue(false);
  }

  private Map<String, Object> readKwargs(char close) {
    Map<String, Object> out = new LinkedHashMap<>();
    while (true) {
      skipWs();
      if (eof() || peek() == close) {
        if (!eof()) {
          i++;
        }
        return out;
      }
      int start = i;
      while (!eof() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == '.')) {
        i++;
      }
      String key = s.substring(start, i);
      skipWs();
      if (!key.isEmpty() && !eof() && peek() == '=' && !s.startsWith("==", i)) {
        i++;
        out.put(key, readValue(false));
      } else {
        i = start;
        readValue(false); // positional argument: skipped
      }
      skipWs();
      if (!eof() && peek() == ',') {
        i++;
      } else if (!eof() && peek() != close) {
        i++; // unexpected character: skip it so the loop always advances
      }
      if (i == start) {
        i++;
      }
    }
  }

  private Object readValue(boolean dictKey) {
    skipWs();
    if (eof()) {
      return null;
    }
    char c = peek();
    if (c == '\'' || c == '"') {
      return readString();
    }
    if (c == '{') {
      i++;
      return readDict();
    }
    if (c == '[') {
      i++;
      return readList(']');
    }
    if (c == '(') {
      i++;
      return readList(')');
    }
    int start = i;
    int depth = 0;
    while (!eof()) {
      char d = peek();
      if (d == '(' && depth == 0 && i > start) {
        String name = s.substring(start, i).strip();
        i++;
        Map<String, Object> obj = new LinkedHashMap<>();
        obj.put(TYPE, name);
        obj.putAll(readKwargs(')'));
        return obj;
      }
      if (d == '<') {
        depth++;
      } else if (d == '>' && depth > 0) {
        depth--;
      } else if (depth == 0
          && (d == ',' || d == ')' || d == ']' || d == '}' || (dictKey && d == ':'))) {
        break;
      }
      i++;
    }
    return token(s.substring(start, i).strip());
  }

  private Map<String, Object> readDict() {
    Map<String, Object> out = new LinkedHashMap<>();
    while (true) {
      skipWs();
      if (eof()) {
        return out;
      }
      if (peek() == '}') {
        i++;
        return out;
      }
      int start = i;
      Object key = readValue(true);
      skipWs();
      if (!eof() && peek() == ':') {
        i++;
        out.put(String.valueOf(key), readValue(false));
      }
      skipWs();
      if (!eof() && peek() == ',') {
        i++;
      } else if (!eof() && peek() != '}') {
        i++;
      }
      if (i == start) {
        i++;
      }
    }
  }

  private List<Object> readList(char close) {
    List<Object> out = new ArrayList<>();
    while (true) {
      skipWs();
      if (eof()) {
        return out;
      }
      if (peek() == close) {
        i++;
        return out;
      }
      int start = i;
      out.add(readValue(false));
      skipWs();
      if (!eof() && peek() == ',') {
        i++;
      } else if (!eof() && peek() != close) {
        i++;
      }
      if (i == start) {
        i++;
      }
    }
  }

  private String readString() {
    char quote = s.charAt(i++);
    StringBuilder b = new StringBuilder();
    while (!eof()) {
      char c = s.charAt(i++);
      if (c == '\\' && !eof()) {
        char e = s.charAt(i++);
        b.append(
            switch (e) {
              case 'n' -> '\n';
              case 't' -> '\t';
              default -> e;
            });
      } else if (c == quote) {
        return b.toString();
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static Object token(String t) {
    switch (t) {
      case "None", "null", "" -> {
        return null;
      }
      case "True", "true" -> {
        return Boolean.TRUE;
      }
      case "False", "false" -> {
        return Boolean.FALSE;
      }
      default -> {
        // fall through to number / text
      }
    }
    if (t.matches("[-+]?\\d{1,18}")) {
      return Long.parseLong(t);
    }
    if (t.matches("[-+]?(\\d+\\.\\d*|\\.\\d+|\\d+)([eE][-+]?\\d+)?") && t.length() < 40) {
      return Double.parseDouble(t);
    }
    return t;
  }

  private void skipWs() {
    while (!eof() && Character.isWhitespace(peek())) {
      i++;
    }
  }

  private boolean eof() {
    return i >= s.length();
  }

  private char peek() {
    return s.charAt(i);
  }
}
