package io.specwatch.sink.cookbook;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One file of the SQL cookbook ({@code sql/<name>.sql}): a header of comment lines ({@code --
 * question: ...}, {@code -- param: name Type default description}, free text), then one SELECT over
 * unqualified table names (run it with the specwatch database as the default database) that uses
 * its parameters as {@code {name:Type}}, ClickHouse's query-parameter syntax. ClickHouse 18.16 has
 * no query parameters, so {@link #render} substitutes typed literals; a modern server or
 * clickhouse-client can also run the file as it is with {@code --param_name=value}.
 */
public record CookbookQuery(String name, String question, List<QueryParam> params, String sql) {

  private static final Pattern PARAM_LINE =
      Pattern.compile("^--\\s*param:\\s*(\\w+)\\s+(\\w+)\\s+('[^']*'|\\S+)\\s*(.*)$");
  private static final Pattern USE = Pattern.compile("\\{(\\w+):(\\w+)\\}");

  public CookbookQuery {
    params = List.copyOf(params);
    Map<String, String> declared = new HashMap<>();
    for (QueryParam p : params) {
      declared.put(p.name(), p.type());
    }
    Matcher m = USE.matcher(sql);
    while (m.find()) {
      String type = declared.get(m.group(1));
      if (type == null || !type.equals(m.group(2))) {
        throw new IllegalArgumentException(
            "sql/"
                + name
                + ".sql uses {"
                + m.group(1)
                + ":"
                + m.group(2)
                + "} but declares "
                + (type == null ? "no such param" : "it as " + type));
      }
    }
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException("sql/" + name + ".sql has no '-- question:' line");
    }
  }

  /** Parses a cookbook file. */
  public static CookbookQuery parse(String fileName, String text) {
    if (!fileName.endsWith(".sql")) {
      throw new IllegalArgumentException("not a .sql file: " + fileName);
    }
    String name = fileName.substring(0, fileName.length() - 4);
    String question = null;
    List<QueryParam> params = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    for (String line : text.split("\\R")) {
      String t = line.strip();
      if (t.startsWith("--") && body.length() == 0) {
        Matcher p = PARAM_LINE.matcher(t);
        if (t.startsWith("-- question:")) {
          question = t.substring("-- question:".length()).strip();
        } else if (p.matches()) {
          String def = p.group(3);
          if (def.startsWith("'")) {
            def = def.substring(1, def.length() - 1);
          }
          params.add(new QueryParam(p.group(1), p.group(2), def, p.group(4).strip()));
        }
        continue;
      }
      if (!t.isEmpty() || body.length() > 0) {
        body.append(line).append('\n');
      }
    }
    String sql = body.toString().strip();
    if (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    if (sql.isEmpty()) {
      throw new IllegalArgumentException(fileName + " has no query");
    }
    return new CookbookQuery(name, question, params, sql);
  }

  /** Every parameter's value: the given ones over the defaults; unknown names are an error. */
  public Map<String, String> values(Map<String, String> given) {
    Map<String, String> out = new LinkedHashMap<>();
    for (QueryParam p : params) {
      out.put(p.name(), given.getOrDefault(p.name(), p.defaultValue()));
    }
    for (String key : given.keySet()) {
      if (!out.containsKey(key)) {
        throw new IllegalArgumentException(
            "query " + name + " has no parameter '" + key + "' (it has " + out.keySet() + ")");
      }
    }
    return out;
  }

  /** The SQL with every {@code {name:Type}} replaced by the value's literal (what 18.16 runs). */
  public String render(Map<String, String> given) {
    Map<String, String> values = values(given);
    Map<String, QueryParam> byName = new HashMap<>();
    params.forEach(p -> byName.put(p.name(), p));
    Matcher m = USE.matcher(sql);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      QueryParam p = byName.get(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(p.literal(values.get(p.name()))));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Values as ClickHouse's server-side query parameters want them (name without param_). */
  public Map<String, String> nativeParams(Map<String, String> given) {
    Map<String, String> values = values(given);
    Map<String, String> out = new LinkedHashMap<>();
    for (QueryParam p : params) {
      out.put(p.name(), p.nativeValue(values.get(p.name())));
    }
    return out;
  }
}
