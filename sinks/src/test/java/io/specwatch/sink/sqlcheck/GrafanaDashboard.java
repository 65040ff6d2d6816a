package io.specwatch.sink.sqlcheck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code dashboards/grafana/specwatch.json} read back: every SQL it holds (panel targets, the
 * annotation, the deployment variable) and the substitution of the grafana-clickhouse-datasource
 * macros and variables by concrete values, as the plugin would do before sending the query.
 */
final class GrafanaDashboard {

  private static final Pattern TIME_FILTER = Pattern.compile("\\$__timeFilter\\(([^)]+)\\)");

  final JsonNode root;

  private GrafanaDashboard(JsonNode root) {
    this.root = root;
  }

  static Path file() {
    return ChdbEngine.repoRoot().resolve("dashboards/grafana/specwatch.json");
  }

  static GrafanaDashboard load() {
    try {
      return new GrafanaDashboard(new ObjectMapper().readTree(file().toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Label (panel title, "annotation ...", "variable ...") to raw SQL, in file order. */
  Map<String, String> queries() {
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode panel : root.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.put(panel.path("title").asText(), target.path("rawSql").asText());
      }
    }
    for (JsonNode a : root.path("annotations").path("list")) {
      out.put("annotation " + a.path("name").asText(), a.path("target").path("rawSql").asText());
    }
    for (JsonNode v : root.path("templating").path("list")) {
      if ("query".equals(v.path("type").asText())) {
        out.put("variable " + v.path("name").asText(), v.path("query").asText());
      }
    }
    return out;
  }

  List<JsonNode> panels() {
    List<JsonNode> out = new ArrayList<>();
    root.path("panels").forEach(out::add);
    return out;
  }

  /**
   * The SQL as the plugin sends it: {@code $__timeFilter(c)} becomes {@code c >= toDateTime(from)
   * AND c <= toDateTime(to)}, {@code ${deployment:singlequote}} the quoted, comma-separated values.
   */
  static String substitute(String sql, long fromEpoch, long toEpoch, List<String> deployments) {
    Matcher m = TIME_FILTER.matcher(sql);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String col = m.group(1).strip();
      m.appendReplacement(
          out,
          Matcher.quoteReplacement(
              col
                  + " >= toDateTime("
                  + fromEpoch
                  + ") AND "
                  + col
                  + " <= toDateTime("
                  + toEpoch
                  + ")"));
    }
    m.appendTail(out);
    String quoted =
        String.join(
            ",",
            deployments.stream()
                .map(d -> "'" + d.replace("\\", "\\\\").replace("'", "\\'") + "'")
                .toList());
    String result = out.toString().replace("${deployment:singlequote}", quoted);
    if (result.contains("$")) {
      throw new IllegalStateException("unsubstituted Grafana macro or variable in: " + result);
    }
    return result;
  }
}
