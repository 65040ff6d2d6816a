package io.specwatch.ingest.scrape;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parser of the Prometheus text exposition format 0.0.4 (what vLLM and SGLang serve on /metrics).
 * The Java client library only writes this format, so the reader is here: comments, HELP/TYPE lines
 * (ignored: the metric names say enough), labels with {@code \\ \" \n} escapes, NaN/+Inf/-Inf
 * values and optional timestamps. A malformed line fails the whole scrape with its line number.
 */
public final class PromTextParser {

  private PromTextParser() {}

  /** Thrown for a line that is not valid exposition text. */
  public static final class PromParseException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    PromParseException(int line, String message) {
      super("metrics line " + line + ": " + message);
    }
  }

  public static List<PromSample> parse(String text) {
    List<PromSample> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      out.add(parseSample(line, i + 1));
    }
    return out;
  }

  static PromSample parseSample(String line, int lineNo) {
    int pos = 0;
    int n = line.length();
    while (pos < n && isNameChar(line.charAt(pos), pos == 0)) {
      pos++;
    }
    if (pos == 0) {
      throw new PromParseException(lineNo, "expected a metric name: '" + line + "'");
    }
    String name = line.substring(0, pos);
    Map<String, String> labels = new LinkedHashMap<>();
    int brace = skipSpaces(line, pos);
    if (brace < n && line.charAt(brace) == '{') {
      pos = parseLabels(line, brace + 1, labels, lineNo);
    }
    String rest = line.substring(pos).strip();
    if (rest.isEmpty()) {
      throw new PromParseException(lineNo, "missing value for " + name);
    }
    String[] parts = rest.split("[ \t]+");
    if (parts.length > 2) {
      throw new PromParseException(lineNo, "unexpected text after value: '" + rest + "'");
    }
    double value = parseValue(parts[0], lineNo);
    Long ts = null;
    if (parts.length == 2) {
      try {
        ts = Long.parseLong(parts[1]);
      } catch (NumberFormatException e) {
        throw new PromParseException(lineNo, "bad timestamp '" + parts[1] + "'");
      }
    }
    return new PromSample(name, labels, value, parts[0], ts);
  }

  private static int parseLabels(String line, int pos, Map<String, String> labels, int lineNo) {
    int n = line.length();
    while (true) {
      pos = skipSpaces(line, pos);
      if (pos < n && line.charAt(pos) == '}') {
        return pos + 1;
      }
      int start = pos;
      while (pos < n && isNameChar(line.charAt(pos), pos == start) && line.charAt(pos) != ':') {
        pos++;
      }
      if (pos == start) {
        throw new PromParseException(lineNo, "expected a label name at column " + (pos + 1));
      }
      String key = line.substring(start, pos);
      pos = skipSpaces(line, pos);
      if (pos >= n || line.charAt(pos) != '=') {
        throw new PromParseException(lineNo, "expected '=' after label " + key);
      }
      pos = skipSpaces(line, pos + 1);
      if (pos >= n || line.charAt(pos) != '"') {
        throw new PromParseException(lineNo, "expected '\"' to open label " + key);
      }
      pos++;
      StringBuilder value = new StringBuilder();
      boolean closed = false;
      while (pos < n) {
        char c = line.charAt(pos++);
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\') {
          if (pos >= n) {
            break;
          }
          char e = line.charAt(pos++);
          switch (e) {
            case 'n' -> value.append('\n');
            case '\\' -> value.append('\\');
            case '"' -> value.append('"');
            default -> value.append('\\').append(e);
          }
        } else {
          value.append(c);
        }
      }
      if (!closed) {
        throw new PromParseException(lineNo, "unterminated value of label " + key);
      }
      if (labels.put(key, value.toString()) != null) {
        throw new PromParseException(lineNo, "duplicate label " + key);
      }
      pos = skipSpaces(line, pos);
      if (pos < n && line.charAt(pos) == ',') {
        pos++;
      } else if (pos >= n || line.charAt(pos) != '}') {
        throw new PromParseException(lineNo, "expected ',' or '}' after label " + key);
      }
    }
  }

  static double parseValue(String text, int lineNo) {
    switch (text) {
      case "NaN":
        return Double.NaN;
      case "+Inf":
      case "Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        break;
    }
    try {
      // Java would also accept "Infinity", hex floats and a trailing 'd': reject letters early.
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (!(Character.isDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
          throw new NumberFormatException();
        }
      }
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new PromParseException(lineNo, "bad value '" + text + "'");
    }
  }

  private static boolean isNameChar(char c, boolean first) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || c == ':'
        || (!first && c >= '0' && c <= '9');
  }

  private static int skipSpaces(String line, int pos) {
    while (pos < line.length() && (line.charAt(pos) == ' ' || line.charAt(pos) == '\t')) {
      pos++;
    }
    return pos;
  }
}
