package io.specwatch.sink.cookbook;

import io.specwatch.sink.ResourceFolder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The SQL cookbook shipped with the project: the repository's {@code sql/*.sql}, packaged into the
 * sinks jar under {@code sql/}.
 */
public final class Cookbook {

  public static final String LOCATION = "sql";

  private final List<CookbookQuery> queries;

  public Cookbook(List<CookbookQuery> queries) {
    this.queries = List.copyOf(queries);
  }

  /** The bundled queries, by file name. */
  public static Cookbook bundled() {
    Map<String, String> files =
        ResourceFolder.read(Cookbook.class.getClassLoader(), LOCATION, n -> n.endsWith(".sql"));
    List<CookbookQuery> out = new ArrayList<>();
    files.forEach((name, text) -> out.add(CookbookQuery.parse(name, text)));
    return new Cookbook(out);
  }

  public List<CookbookQuery> queries() {
    return queries;
  }

  /** The query of that name; IllegalArgumentException listing the names otherwise. */
  public CookbookQuery get(String name) {
    return queries.stream()
        .filter(q -> q.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no cookbook query '"
                        + name
                        + "'; known: "
                        + queries.stream().map(CookbookQuery::name).toList()));
  }
}
