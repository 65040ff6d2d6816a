package io.specwatch.sink.clickhouse;

import java.util.Map;

/**
 * Renders version-aware SQL: the migrations are written once with placeholders and each server gets
 * the forms it accepts ({@link SqlDialect}).
 *
 * <table>
 *   <caption>Placeholders</caption>
 *   <tr><th>placeholder</th><th>MODERN (22.3+)</th><th>LEGACY (18.16)</th></tr>
 *   <tr><td>{@code ${database}}</td><td colspan="2">the database name</td></tr>
 *   <tr><td>{@code ${DateTimeMs}}</td><td>{@code DateTime64(3, 'UTC')}</td>
 *       <td>{@code DateTime('UTC')}</td></tr>
 *   <tr><td>{@code ${LowCardinality(T)}}</td><td>{@code LowCardinality(T)}</td><td>{@code T}</td></tr>
 *   <tr><td>{@code ${codec(C)}}</td><td>{@code CODEC(C)}</td><td>nothing</td></tr>
 *   <tr><td>{@code ${ttl(E)}}</td><td>{@code TTL E}</td><td>nothing</td></tr>
 *   <tr><td>{@code ${modern(X)}}</td><td>{@code X}</td><td>nothing</td></tr>
 *   <tr><td>{@code ${legacy(X)}}</td><td>nothing</td><td>{@code X}</td></tr>
 * </table>
 *
 * Arguments may hold nested parentheses and quoted strings. An unknown placeholder is an error.
 */
public final class SqlTemplate {

  private SqlTemplate() {}

  /** Renders {@code text} for the dialect; {@code variables} fill plain {@code ${name}}s. */
  public static String render(String text, SqlDialect dialect, Map<String, String> variables) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      int start = text.indexOf("${", i);
      if (start < 0) {
        out.append(text, i, text.length());
        break;
      }
      out.append(text, i, start);
      int nameEnd = start + 2;
      while (nameEnd < text.length() && Character.isJavaIdentifierPart(text.charAt(nameEnd))) {
        nameEnd++;
      }
      String name = text.substring(start + 2, nameEnd);
      if (nameEnd < text.length() && text.charAt(nameEnd) == '}') {
        out.append(plain(name, dialect, variables, start, text));
        i = nameEnd + 1;
      } else if (nameEnd < text.length() && text.charAt(nameEnd) == '(') {
        int close = matchingParen(text, nameEnd);
        if (close + 1 >= text.length() || text.charAt(close + 1) != '}') {
          throw error("'}' expected after ${" + name + "(...)", start, text);
        }
        String arg = text.substring(nameEnd + 1, close).strip();
        out.append(function(name, arg, dialect, start, text));
        i = close + 2;
      } else {
        throw error("malformed placeholder", start, text);
      }
    }
    return out.toString();
  }

  private static String plain(
      String name, SqlDialect dialect, Map<String, String> variables, int at, String text) {
    if ("DateTimeMs".equals(name)) {
      return dialect.isModern() ? "DateTime64(3, 'UTC')" : "DateTime('UTC')";
    }
    String value = variables.get(name);
    if (value == null) {
      throw error("unknown placeholder ${" + name + "}", at, text);
    }
    return value;
  }

  private static String function(String name, String arg, SqlDialect dialect, int at, String text) {
    boolean modern = dialect.isModern();
    return switch (name) {
      case "LowCardinality" -> modern ? "LowCardinality(" + arg + ")" : arg;
      case "codec" -> modern ? "CODEC(" + arg + ")" : "";
      case "ttl" -> modern ? "TTL " + arg : "";
      case "modern" -> modern ? arg : "";
      case "legacy" -> modern ? "" : arg;
      default -> throw error("unknown placeholder ${" + name + "(...)}", at, text);
    };
  }

  /** Index of the ')' closing the '(' at {@code open}; quotes and nesting respected. */
  private static int matchingParen(String text, int open) {
    int depth = 0;
    char quote = 0;
    for (int j = open; j < text.length(); j++) {
      char c = text.charAt(j);
      if (quote != 0) {
        if (c == '\\') {
          j++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        return j;
      }
    }
    throw error("unbalanced parentheses", open, text);
  }

  private static IllegalArgumentException error(String what, int at, String text) {
    int line = 1;
    for (int j = 0; j < at && j < text.length(); j++) {
      if (text.charAt(j) == '\n') {
        line++;
      }
    }
    return new IllegalArgumentException("SQL template line " + line + ": " + what);
  }
}
